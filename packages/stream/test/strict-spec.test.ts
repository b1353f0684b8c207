// Strict decoding (the default) accepts what Friendli's published description allows: the nulls its streamed
// tool-call delta permits, and its string "null" finish reason, which the stream reads as "not finished".
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { ChatCompletionStream, CompletionStream } from "../src/index.ts"
import { pieceStream, reads, sseBody } from "./support.ts"

const chat = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: null,
  usage: null,
  choices: [{ index: 0, delta, finish_reason, logprobs: null }],
})

const call = (id: string | null, name: string | null, args: string) => ({
  tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: args } }],
})

describe("strict decoding of Friendli's description", () => {
  it("decodes a chat chunk whose delta has a null role, null tool_calls, and a tool call with null id and name", async () => {
    const chunks = [
      chat({ role: "assistant", content: null, tool_calls: null }),
      chat({ role: null, content: null, ...call("call_1", "weather", "") }),
      chat({ role: null, content: null, ...call(null, null, '{"city":') }),
      chat({ role: null, content: null, ...call(null, null, '"Paris"}') }),
      chat({ role: null, content: null, tool_calls: null }, "tool_calls"),
    ]
    const decoded = await Effect.runPromise(
      Stream.runCollect(ChatCompletionStream.decode(pieceStream(reads(sseBody(chunks))))),
    )
    assert.equal(decoded.length, chunks.length)
    assert.equal(decoded[2]?.choices[0]?.delta?.tool_calls?.[0]?.id, null)
    const result = await Effect.runPromise(
      ChatCompletionStream.accumulate(ChatCompletionStream.decode(pieceStream(reads(sseBody(chunks))))),
    )
    const message = result.choices[0]?.message
    assert.deepEqual(
      message?.tool_calls.map((t) => [t.id, t.function.name, t.function.arguments]),
      [["call_1", "weather", '{"city":"Paris"}']],
    )
    assert.equal(result.choices[0]?.finish_reason, "tool_calls")
  })

  it('reads the finish reason "null" (listed by the description) as null', async () => {
    const chunks = [
      {
        id: "cmpl-1",
        object: "text_completion",
        created: 1,
        choices: [{ index: 0, text: "a", finish_reason: "null" }],
      },
      { id: "cmpl-1", object: "text_completion", created: 1, choices: [{ index: 0, text: "", finish_reason: "stop" }] },
    ]
    const decoded = await Effect.runPromise(
      Stream.runCollect(CompletionStream.decode(pieceStream(reads(sseBody(chunks))))),
    )
    assert.deepEqual(
      decoded.map((c) => c.choices[0]?.finish_reason),
      [null, "stop"],
    )
    const chatDecoded = await Effect.runPromise(
      Stream.runCollect(ChatCompletionStream.decode(pieceStream(reads(sseBody([chat({ content: "a" }, "null")]))))),
    )
    assert.equal(chatDecoded[0]?.choices[0]?.finish_reason, null)
  })

  it("types and keeps reasoning_content on a streamed delta", async () => {
    const decoded = await Effect.runPromise(
      Stream.runCollect(
        ChatCompletionStream.decode(pieceStream(reads(sseBody([chat({ reasoning_content: "Thinking" })])))),
      ),
    )
    const delta = decoded[0]?.choices[0]?.delta
    assert.equal(delta?.reasoning_content, "Thinking")
  })

  it("refuses a tool call delta without the type the description requires, naming the place", async () => {
    const bad = chat({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] })
    const exit = await Effect.runPromiseExit(
      Stream.runCollect(ChatCompletionStream.decode(pieceStream(reads(sseBody([bad]))))),
    )
    assert.equal(exit._tag, "Failure")
    assert.match(String(exit), /tool_calls.*type|type.*tool_calls/s)
  })
})
