// What the mock model says: plausible replies chosen by the prompt, reasoning before the answer when asked for,
// and max_tokens counting both.
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import {
  accumulateText,
  chatBody,
  choicesOf,
  completionsBody,
  newMock,
  post,
  readStream,
  type ToolCallDelta,
} from "./helpers.ts"

const CHAT = "/serverless/v1/chat/completions"
const COMPLETIONS = "/serverless/v1/completions"

interface Delta {
  readonly role?: string
  readonly content?: string
  readonly reasoning_content?: string
  readonly tool_calls?: ReadonlyArray<ToolCallDelta>
}

const weather = {
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
}
const time = { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } }

/** The deltas of choice 0, in order. */
const deltas = (chunks: ReadonlyArray<Record<string, unknown>>): Array<Delta> =>
  chunks.flatMap(choicesOf).flatMap((c) => (c.index === 0 && c.delta !== undefined ? [c.delta as Delta] : []))

const streamChat = async (extra: Record<string, unknown>) => {
  const { chunks } = await readStream(
    await post(newMock(), CHAT, chatBody({ stream_options: { include_usage: true }, ...extra })),
  )
  const ds = deltas(chunks)
  const usage = chunks.at(-1)?.usage as {
    completion_tokens: number
    completion_tokens_details?: { reasoning_tokens: number }
  }
  return {
    chunks,
    reasoning: ds.map((d) => d.reasoning_content ?? "").join(""),
    content: ds.map((d) => d.content ?? "").join(""),
    order: ds.flatMap((d) => [
      ...(d.reasoning_content !== undefined ? ["reasoning"] : []),
      ...(d.content ? ["content"] : []),
    ]),
    finish: choicesOf(chunks.at(-2)!)[0]?.finish_reason,
    usage,
  }
}

describe("the mock model's replies", () => {
  it("answers with sentences about the prompt's topic instead of random words", async () => {
    const { chunks } = await readStream(await post(newMock(), COMPLETIONS, completionsBody({ max_tokens: 40 })))
    const text = accumulateText(chunks).get(0)!
    assert.match(text, /this is a test/i, text)
    const chat = await streamChat({ messages: [{ role: "user", content: "Write a haiku about GPUs" }] })
    assert.match(
      chat.content,
      /^\S[\s\S]*\n[\s\S]*\n/,
      `a chat answer starts with a word, a haiku has lines: ${chat.content}`,
    )
    assert.equal(chat.finish, "stop")
  })

  it("gives the same reply for the same prompt and seed, and another opening for the next seed", async () => {
    const read = async (seed: number) =>
      (await streamChat({ seed, messages: [{ role: "user", content: "Tell me about streaming" }] })).content
    assert.equal(await read(1), await read(1))
    assert.notEqual((await read(1)).split(".")[0], (await read(2)).split(".")[0])
  })
})

describe("reasoning", () => {
  it("sends no reasoning unless the request asks for it", async () => {
    const plain = await streamChat({})
    assert.equal(plain.reasoning, "")
    assert.equal(plain.usage.completion_tokens_details, undefined)
  })

  it("streams reasoning_content deltas before the answer for a reasoning_effort, and counts them in the usage", async () => {
    const r = await streamChat({ reasoning_effort: "medium" })
    assert.ok(r.reasoning.length > 0, "no reasoning")
    assert.ok(r.content.length > 0, "no answer")
    const firstContent = r.order.indexOf("content")
    assert.ok(
      r.order.slice(firstContent).every((k) => k === "content"),
      `reasoning after the answer began: ${r.order.join(",")}`,
    )
    assert.equal(r.order[0], "reasoning")
    const reasoningDeltas = r.order.filter((k) => k === "reasoning").length
    assert.equal(r.usage.completion_tokens_details?.reasoning_tokens, reasoningDeltas)
    assert.equal(r.usage.completion_tokens, reasoningDeltas + r.order.filter((k) => k === "content").length)
  })

  it("thinks longer for a higher effort", async () => {
    const low = await streamChat({ reasoning_effort: "low" })
    const high = await streamChat({ reasoning_effort: "high" })
    assert.ok(
      high.reasoning.length > low.reasoning.length,
      `high: ${high.reasoning.length} chars, low: ${low.reasoning.length}`,
    )
  })

  it("counts reasoning towards max_tokens: a reasoning that reaches it ends with length and no answer", async () => {
    const r = await streamChat({ reasoning_effort: "high", max_tokens: 5 })
    assert.equal(r.usage.completion_tokens, 5)
    assert.equal(r.content, "")
    assert.equal(r.finish, "length")
    const room = await streamChat({ reasoning_effort: "minimal", max_tokens: 12, ignore_eos: true })
    assert.equal(room.usage.completion_tokens, 12)
    assert.ok(room.reasoning.length > 0 && room.content.length > 0)
    assert.equal(room.finish, "length")
  })

  it("leaves the reasoning out with include_reasoning false, and keeps it in content between <think> tags with parse_reasoning false", async () => {
    const hidden = await streamChat({ reasoning_effort: "low", include_reasoning: false })
    assert.equal(hidden.reasoning, "")
    assert.ok(
      (hidden.usage.completion_tokens_details?.reasoning_tokens ?? 0) > 0,
      "the hidden reasoning was not counted",
    )
    const inline = await streamChat({ reasoning_effort: "low", parse_reasoning: false })
    assert.equal(inline.reasoning, "")
    assert.match(inline.content, /^<think>\n[\s\S]+\n<\/think>\n\n\S/)
  })

  it("honours reasoning_budget and chat_template_kwargs.enable_thinking", async () => {
    const budget = await streamChat({ reasoning_effort: "max", reasoning_budget: 3 })
    assert.equal(budget.usage.completion_tokens_details?.reasoning_tokens, 3)
    const thinking = await streamChat({ chat_template_kwargs: { enable_thinking: true } })
    assert.ok(thinking.reasoning.length > 0)
  })

  it("puts the same reasoning in the non-streamed message's reasoning_content", async () => {
    const body = chatBody({ reasoning_effort: "low", seed: 3 })
    const streamed = await streamChat({ reasoning_effort: "low", seed: 3 })
    const res = await post(newMock(), CHAT, { ...body, stream: false })
    const json = (await res.json()) as { choices: Array<{ message: { content: string; reasoning_content?: string } }> }
    assert.equal(json.choices[0]!.message.reasoning_content, streamed.reasoning)
    assert.equal(json.choices[0]!.message.content, streamed.content)
  })

  it("with tools, reasons, then says what it is about to do in content, then calls the functions", async () => {
    const request = {
      messages: [{ role: "user", content: "What is the weather in Paris? Use get_weather and get_time." }],
      tools: [weather, time],
      reasoning_effort: "low",
    }
    const r = await streamChat(request)
    assert.equal(r.order[0], "reasoning")
    const firstContent = r.order.indexOf("content")
    assert.ok(firstContent > 0, `no preface after the reasoning: ${r.order.join(",")}`)
    assert.ok(r.order.slice(firstContent).every((k) => k === "content"))
    assert.match(r.content, /^\S.*get_weather and get_time/, r.content)
    const ds = deltas(r.chunks)
    const firstCall = ds.findIndex((d) => d.tool_calls !== undefined)
    const textAfter = ds.slice(firstCall).filter((d) => d.content !== undefined || d.reasoning_content !== undefined)
    assert.ok(firstCall > 0, `first call at delta ${firstCall}`)
    assert.deepEqual(textAfter, [], "no text after the first call")
    assert.deepEqual(
      ds
        .slice(firstCall)
        .filter((d) => d.tool_calls !== undefined && d.tool_calls[0]!.id != null)
        .map((d) => d.tool_calls![0]!.function.name),
      ["get_weather", "get_time"],
    )
    assert.equal(r.finish, "tool_calls")
    const callDeltas = ds.filter((d) => d.tool_calls !== undefined).length
    const fragments = callDeltas - 2
    const reasoningDeltas = r.order.filter((k) => k === "reasoning").length
    assert.equal(r.usage.completion_tokens_details?.reasoning_tokens, reasoningDeltas)
    assert.equal(r.usage.completion_tokens, reasoningDeltas + r.order.filter((k) => k === "content").length + fragments)
    const again = await streamChat(request)
    assert.deepEqual(
      again.chunks.map((c) => c.choices),
      r.chunks.map((c) => c.choices),
      "the same request streams the same",
    )
  })

  it("with tools, puts the same reasoning, preface and calls in the non-streamed message", async () => {
    const extra = {
      messages: [{ role: "user", content: "get_weather for Oslo" }],
      tools: [weather],
      reasoning_effort: "minimal",
    }
    const streamed = await streamChat(extra)
    const res = await post(newMock(), CHAT, { ...chatBody(extra), stream: false })
    const json = (await res.json()) as {
      choices: Array<{
        finish_reason: string
        message: {
          content: string | null
          reasoning_content?: string
          tool_calls: Array<{ function: { name: string } }>
        }
      }>
    }
    const choice = json.choices[0]!
    assert.equal(choice.message.reasoning_content, streamed.reasoning)
    assert.equal(choice.message.content, streamed.content)
    assert.deepEqual(
      choice.message.tool_calls.map((c) => c.function.name),
      ["get_weather"],
    )
    assert.equal(choice.finish_reason, "tool_calls")
  })

  it("with tools, ends with length and no call when the reasoning reaches max_tokens", async () => {
    const r = await streamChat({
      messages: [{ role: "user", content: "get_weather for Oslo" }],
      tools: [weather],
      reasoning_effort: "high",
      max_tokens: 4,
    })
    assert.equal(r.finish, "length")
    assert.equal(r.usage.completion_tokens, 4)
    assert.ok(deltas(r.chunks).every((d) => d.tool_calls === undefined))
  })

  it("refuses an unknown reasoning_effort naming the field", async () => {
    const res = await post(newMock(), CHAT, chatBody({ reasoning_effort: "enormous" }))
    assert.equal(res.status, 422)
    const { detail } = (await res.json()) as { detail: Array<{ loc: Array<string> }> }
    assert.deepEqual(
      detail.map((d) => d.loc.join(".")),
      ["body.reasoning_effort"],
    )
  })
})
