import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { ChatCompletionStream, CompletionStream } from "../src/index.ts"
import { pieceStream, reads, sseBody } from "./support.ts"

const usage = { prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 }
const lp = (token: string, offset: number) => ({
  text_offset: [offset],
  token_logprobs: [-0.5],
  tokens: [token],
  top_logprobs: [{ [token]: -0.5 }],
})
const cmpl = (choices: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({
  id: "cmpl-1",
  object: "text_completion",
  created: 1,
  choices,
  ...extra,
})

describe("CompletionStream.accumulate", () => {
  it("folds n > 1 choices by index: text concatenated, tokens collected, logprobs appended, usage kept", async () => {
    const chunks = [
      cmpl([{ index: 1, text: "B", token: 20, logprobs: lp("B", 0) }]),
      cmpl([{ index: 0, text: "A", token: 10, logprobs: lp("A", 0) }], { usage: null }),
      cmpl([{ index: 0, text: "a", token: 11, logprobs: lp("a", 1) }]),
      cmpl([{ index: 1, text: "b", token: 21, finish_reason: "length", logprobs: lp("b", 1) }]),
      cmpl([{ index: 0, text: "", finish_reason: "stop" }]),
      cmpl([], { usage }),
      cmpl([], { usage: null }),
    ]
    const result = await Effect.runPromise(
      CompletionStream.accumulate(CompletionStream.decode(pieceStream(reads(sseBody(chunks))))),
    )
    assert.deepEqual(
      result.choices.map((c) => [c.index, c.text, c.tokens, c.finish_reason]),
      [
        [0, "Aa", [10, 11], "stop"],
        [1, "Bb", [20, 21], "length"],
      ],
    )
    assert.deepEqual(result.choices[0]?.logprobs, {
      text_offset: [0, 1],
      token_logprobs: [-0.5, -0.5],
      tokens: ["A", "a"],
      top_logprobs: [{ A: -0.5 }, { a: -0.5 }],
    })
    assert.deepEqual(result.usage, usage)
    assert.equal(result.id, "cmpl-1")
  })

  it("works as a plain accumulator too", () => {
    const acc = CompletionStream.accumulator()
    acc.add(cmpl([{ index: 0, text: "x" }]) as never).add(cmpl([{ index: 0, text: "y" }]) as never)
    assert.equal(acc.result().choices[0]?.text, "xy")
  })
})

describe("ChatCompletionStream.accumulate", () => {
  const chat = (choices: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    choices,
    ...extra,
  })
  it("merges tool calls by index with their arguments concatenated", async () => {
    const chunks = [
      chat([{ index: 0, delta: { role: "assistant", content: null } }]),
      chat([
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "weather", arguments: "" } }],
          },
        },
      ]),
      chat([
        { index: 0, delta: { tool_calls: [{ index: 0, type: "function", function: { arguments: '{"city":' } }] } },
      ]),
      chat([
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "time", arguments: "{}" } }],
          },
        },
      ]),
      chat([
        { index: 0, delta: { tool_calls: [{ index: 0, type: "function", function: { arguments: '"Paris"}' } }] } },
      ]),
      chat([{ index: 0, delta: {}, finish_reason: "tool_calls" }], { usage }),
    ]
    const result = await Effect.runPromise(
      ChatCompletionStream.accumulate(ChatCompletionStream.decode(pieceStream(reads(sseBody(chunks))))),
    )
    const message = result.choices[0]?.message
    assert.equal(message?.content, null)
    assert.deepEqual(
      message?.tool_calls.map((t) => [t.index, t.id, t.function.name, t.function.arguments]),
      [
        [0, "call_a", "weather", '{"city":"Paris"}'],
        [1, "call_b", "time", "{}"],
      ],
    )
    assert.equal(result.choices[0]?.finish_reason, "tool_calls")
    assert.deepEqual(result.usage, usage)
  })

  it("concatenates content and appends logprobs content arrays", async () => {
    const tok = (t: string) => ({ token: t, logprob: -1, top_logprobs: [] })
    const chunks = [
      chat([{ index: 0, delta: { role: "assistant", content: "Hel" }, logprobs: { content: [tok("Hel")] } }]),
      chat([{ index: 0, delta: { content: "lo" }, logprobs: { content: [tok("lo")] } }]),
      chat([{ index: 0, delta: {}, finish_reason: "stop", logprobs: null }]),
    ]
    const result = await Effect.runPromise(
      ChatCompletionStream.accumulate(Stream.fromIterable(chunks) as Stream.Stream<never>),
    )
    assert.equal(result.choices[0]?.message.content, "Hello")
    assert.deepEqual(result.choices[0]?.logprobs?.content, [tok("Hel"), tok("lo")])
  })
})
