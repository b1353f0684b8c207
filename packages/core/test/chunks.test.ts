import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import {
  ChatCompletionChunk,
  CompletionChunk,
  ErrorBody,
  isChatCompletionChunk,
  isCompletionChunk,
  isErrorBody,
  isToolStatusEvent,
} from "../src/index.ts"

// The dedicated completions chunk object, as Friendli documents it (see ../shared/seed/).
const contentChunk = {
  id: "cmpl-26a1e10db8544bc3adb488d2d205288b",
  model: "(endpoint-id)",
  object: "text_completion",
  choices: [{ index: 0, text: " such", token: 1778, finish_reason: null, logprobs: null }],
  created: 1733382157,
}
const secondChunk = {
  ...contentChunk,
  choices: [{ index: 0, text: " as", token: 439, finish_reason: null, logprobs: null }],
}
const finishChunk = { ...contentChunk, choices: [{ index: 0, text: "", finish_reason: "length", logprobs: null }] }
const usageChunk = {
  ...contentChunk,
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
}

describe("completion chunks", () => {
  it("accept the documented content, finish and usage-only chunks", () => {
    for (const chunk of [contentChunk, secondChunk, finishChunk, usageChunk]) {
      assert.equal(isCompletionChunk(chunk), true, JSON.stringify(chunk))
      assert.deepStrictEqual(Schema.decodeUnknownSync(CompletionChunk)(chunk), chunk)
    }
  })

  it('accept Friendli\'s string "null" finish_reason, which its description lists, as it is on the wire', () => {
    const wire = { ...contentChunk, choices: [{ index: 0, text: "x", token: 1, finish_reason: "null" }] }
    assert.equal(isCompletionChunk(wire), true)
    assert.equal(Schema.decodeUnknownSync(CompletionChunk)(wire).choices[0]?.finish_reason, "null")
  })

  it("accept a missing or null model, and keep fields the server added", () => {
    const { model: _, ...noModel } = contentChunk
    assert.equal(isCompletionChunk(noModel), true)
    assert.equal(isCompletionChunk({ ...contentChunk, model: null }), true)
    const extra = { ...contentChunk, system_fingerprint: "fp" }
    assert.equal(isCompletionChunk(extra), true)
    assert.deepStrictEqual(Schema.decodeUnknownSync(CompletionChunk)(extra), extra)
  })

  it("reject chunks of another object, a missing id, a fractional token or an unknown finish reason", () => {
    assert.equal(isCompletionChunk({ ...contentChunk, object: "chat.completion.chunk" }), false)
    const { id: _, ...noId } = contentChunk
    assert.equal(isCompletionChunk(noId), false)
    assert.equal(isCompletionChunk({ ...contentChunk, choices: [{ index: 0, text: "", token: 1.5 }] }), false)
    assert.equal(isCompletionChunk({ ...contentChunk, choices: [{ index: 0, text: "", finish_reason: "eos" }] }), false)
  })

  it("explain a mismatch through the Schema, naming the field", () => {
    const bad = { ...contentChunk, choices: [{ index: 0, text: 42 }] }
    const result = Schema.decodeUnknownResult(CompletionChunk)(bad)
    assert.ok(Result.isFailure(result))
    assert.match(result.failure.message, /Expected string\n\s+at \["choices"\]\[0\]\["text"\]/)
  })
})

describe("chat completion chunks", () => {
  const chat = {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1733382157,
    model: "meta-llama-3.1-8b-instruct",
    choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }],
  }

  it("accept content and tool call deltas", () => {
    assert.equal(isChatCompletionChunk(chat), true)
    const tool = {
      ...chat,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "{" } }],
          },
          finish_reason: null,
        },
      ],
    }
    assert.equal(isChatCompletionChunk(tool), true)
    assert.deepStrictEqual(Schema.decodeUnknownSync(ChatCompletionChunk)(tool), tool)
  })

  it("accept the nulls the description allows on a streamed tool call: id, function.name, role, tool_calls", () => {
    const nulls = {
      ...chat,
      choices: [
        {
          index: 0,
          delta: {
            role: null,
            content: null,
            tool_calls: [{ index: 0, id: null, type: "function", function: { name: null, arguments: "{}" } }],
          },
          finish_reason: "null",
        },
      ],
    }
    assert.equal(isChatCompletionChunk(nulls), true)
    assert.deepStrictEqual(Schema.decodeUnknownSync(ChatCompletionChunk)(nulls), nulls)
    const noCalls = { ...chat, choices: [{ index: 0, delta: { tool_calls: null }, finish_reason: null }] }
    assert.equal(isChatCompletionChunk(noCalls), true)
  })

  it("type and accept reasoning_content on a delta (overlay: Friendli sends it, its description omits it)", () => {
    const reasoning = { ...chat, choices: [{ index: 0, delta: { reasoning_content: "Let me think" } }] }
    assert.equal(isChatCompletionChunk(reasoning), true)
    const decoded = Schema.decodeUnknownSync(ChatCompletionChunk)(reasoning)
    assert.equal(decoded.choices[0]?.delta.reasoning_content, "Let me think")
    assert.equal(isChatCompletionChunk({ ...chat, choices: [{ index: 0, delta: { reasoning_content: 1 } }] }), false)
  })
})

describe("tool status events and error bodies", () => {
  it("accept a tool status event and reject an unknown status", () => {
    const event = {
      tool_call_id: "call_1",
      name: "web:search",
      status: "STARTED",
      parameters: [{ name: "query", value: "weather" }],
      result: null,
      timestamp: 1733382157.5,
    }
    assert.equal(isToolStatusEvent(event), true)
    assert.equal(isToolStatusEvent({ ...event, status: "DONE" }), false)
  })

  it("accept each of the three error bodies Friendli sends", () => {
    for (const body of [
      { message: "Invalid token" },
      { detail: "Not Found" },
      { detail: [{ loc: ["body", "max_tokens"], msg: "must be positive", type: "value_error" }] },
      { error: { message: "Rate limited", type: "rate_limit_exceeded", code: 429 } },
    ]) {
      assert.equal(isErrorBody(body), true, JSON.stringify(body))
      assert.deepStrictEqual(Schema.decodeUnknownSync(ErrorBody)(body), body)
    }
    assert.equal(isErrorBody({ error: "nope" }), false)
  })
})
