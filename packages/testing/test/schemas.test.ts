// Every stream the mock emits decodes with the project's generated (strict, non-"Compatible") Friendli schemas,
// and passes the compiled wire-form guards.
import assert from "node:assert/strict"
import {
  ChatCompletionChunk,
  ChatCompletionResponse,
  CompletionChunk,
  CompletionResponse,
  ErrorBody,
  isChatCompletionChunk,
  isChatCompletionResponse,
  isCompletionChunk,
  isCompletionResponse,
  isToolStatusEvent,
  ToolStatusEvent,
} from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import { Schema } from "effect"
import { chatBody, completionsBody, newMock, post, readStream } from "./helpers.ts"

const decodeCompletion = Schema.decodeUnknownSync(CompletionChunk, { errors: "all" })
const decodeChat = Schema.decodeUnknownSync(ChatCompletionChunk, { errors: "all" })
const decodeToolStatus = Schema.decodeUnknownSync(ToolStatusEvent, { errors: "all" })

const weather = {
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
}
const time = { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } }

const COMPLETION_CASES: ReadonlyArray<Record<string, unknown>> = [
  {},
  { max_tokens: 3 },
  { n: 3, seed: 5, stop: [" the"] },
  { logprobs: 5, max_tokens: 6 },
  { logprobs: 0, stream_options: { include_usage: true } },
  { tokens: [1, 2, 3], prompt: undefined, stream_options: { include_usage: true } },
]

const CHAT_CASES: ReadonlyArray<Record<string, unknown>> = [
  {},
  { n: 2, max_tokens: 4, stream_options: { include_usage: true } },
  { logprobs: true, top_logprobs: 3 },
  { logprobs: true },
  { messages: [{ role: "user", content: "get_weather now" }], tools: [weather] },
  { messages: [{ role: "user", content: "x" }], tools: [weather], tool_choice: "required", n: 2 },
  { response_format: { type: "json_object" } },
  { stop: [" a"], max_tokens: 30, ignore_eos: true },
  { reasoning_effort: "high", stream_options: { include_usage: true } },
  { reasoning_effort: "low", n: 2, logprobs: true, top_logprobs: 2 },
  { parse_reasoning: false, reasoning_effort: "minimal" },
  {
    messages: [{ role: "user", content: "get_weather and get_time" }],
    tools: [weather, time],
    reasoning_effort: "low",
  },
  {
    messages: [{ role: "user", content: "get_weather" }],
    tools: [weather],
    reasoning_effort: "minimal",
    parse_reasoning: false,
    n: 2,
    logprobs: true,
    stream_options: { include_usage: true },
  },
  { messages: [{ role: "user", content: "get_weather" }], tools: [weather], include_reasoning: false },
]

describe("strict decoding of emitted streams", () => {
  it("decodes every completions chunk with CompletionChunk and isCompletionChunk", async () => {
    const mock = newMock()
    for (const extra of COMPLETION_CASES) {
      for (const path of ["/serverless/v1/completions", "/dedicated/v1/completions", "/v1/completions"]) {
        const body = { ...completionsBody({ model: "ep1" }), ...extra }
        const { chunks, done } = await readStream(await post(mock, path, body))
        assert.equal(done, true)
        for (const chunk of chunks) {
          assert.ok(isCompletionChunk(chunk), JSON.stringify(chunk))
          assert.doesNotThrow(() => decodeCompletion(chunk), JSON.stringify(chunk))
        }
      }
    }
  })

  it("decodes every chat chunk with ChatCompletionChunk and isChatCompletionChunk", async () => {
    const mock = newMock()
    for (const extra of CHAT_CASES) {
      for (const path of [
        "/serverless/v1/chat/completions",
        "/dedicated/v1/chat/completions",
        "/v1/chat/completions",
      ]) {
        const { chunks, done } = await readStream(await post(mock, path, chatBody({ model: "ep1", ...extra })))
        assert.equal(done, true)
        for (const chunk of chunks) {
          assert.ok(isChatCompletionChunk(chunk), JSON.stringify(chunk))
          assert.doesNotThrow(() => decodeChat(chunk), JSON.stringify(chunk))
        }
      }
    }
  })

  it("decodes streamed tool calls whose continuation deltas carry id and name null, keeping the nulls", async () => {
    const body = chatBody({
      messages: [{ role: "user", content: "get_weather" }],
      tools: [weather],
      reasoning_effort: "low",
    })
    const { chunks } = await readStream(await post(newMock(), "/serverless/v1/chat/completions", body))
    const calls = chunks.flatMap((chunk) => decodeChat(chunk).choices.flatMap((c) => c.delta.tool_calls ?? []))
    const continuations = calls.filter((t) => t.id === null)
    assert.ok(continuations.length > 1, `${continuations.length} deltas with id null`)
    for (const t of continuations) {
      assert.equal(t.function.name, null)
      assert.equal(t.type, "function")
    }
    assert.equal(calls.length - continuations.length, 1, "one delta names the call")
  })

  it("decodes tool_status events with ToolStatusEvent and the answer with ChatCompletionChunk", async () => {
    for (const fault of ["", "tool-error"]) {
      const body = chatBody({
        tools: [{ type: "math:calculator" }, { type: "web:url" }, { type: "code:python-interpreter" }, weather],
        stream_options: { include_usage: true },
      })
      const res = await post(newMock(), "/serverless/tools/v1/chat/completions", body, {
        headers: { "x-mock-fault": fault },
      })
      const { events } = await readStream(res)
      let statuses = 0
      for (const event of events) {
        if (event.data === "[DONE]") continue
        const data = JSON.parse(event.data) as unknown
        if (event.event === "tool_status") {
          statuses++
          assert.ok(isToolStatusEvent(data), event.data)
          assert.doesNotThrow(() => decodeToolStatus(data), event.data)
        } else {
          assert.equal(event.event, undefined)
          assert.ok(isChatCompletionChunk(data), event.data)
          assert.doesNotThrow(() => decodeChat(data), event.data)
        }
      }
      assert.ok(statuses >= 2)
    }
  })

  it("decodes non-streamed bodies with CompletionResponse and ChatCompletionResponse", async () => {
    const mock = newMock()
    for (const extra of COMPLETION_CASES) {
      const body = { ...completionsBody(), ...extra, stream: false, stream_options: undefined }
      const json = (await (await post(mock, "/serverless/v1/completions", body)).json()) as unknown
      assert.ok(isCompletionResponse(json), JSON.stringify(json))
      assert.doesNotThrow(() => Schema.decodeUnknownSync(CompletionResponse)(json))
    }
    for (const extra of CHAT_CASES) {
      const body = chatBody({ ...extra, stream: false, stream_options: undefined })
      const json = (await (await post(mock, "/serverless/v1/chat/completions", body)).json()) as unknown
      assert.ok(isChatCompletionResponse(json), JSON.stringify(json))
      assert.doesNotThrow(() => Schema.decodeUnknownSync(ChatCompletionResponse)(json))
    }
  })

  it("decodes every error body with ErrorBody, and the in-stream error too", async () => {
    const mock = newMock({ models: ["m"] })
    const responses = [
      await post(mock, "/serverless/v1/completions", completionsBody(), { token: null }),
      await post(mock, "/serverless/v1/completions", completionsBody({ n: 0 })),
      await post(mock, "/serverless/v1/completions", completionsBody({ model: "nope" })),
      await post(mock, "/nowhere", {}),
      await post(mock, "/serverless/v1/completions", completionsBody(), { headers: { "x-mock-fault": "rate-limit" } }),
      await post(mock, "/serverless/v1/completions", completionsBody(), { headers: { "x-mock-fault": "status:503" } }),
      await post(mock, "/serverless/v1/completions", completionsBody(), { headers: { "x-mock-fault": "bogus" } }),
    ]
    for (const res of responses) {
      assert.ok(res.status >= 400)
      const json = (await res.json()) as unknown
      assert.doesNotThrow(() => Schema.decodeUnknownSync(ErrorBody)(json), JSON.stringify(json))
    }
    const { events } = await readStream(
      await post(mock, "/serverless/v1/completions", completionsBody({ model: "m" }), {
        headers: { "x-mock-fault": "error:1" },
      }),
    )
    assert.doesNotThrow(() => Schema.decodeUnknownSync(ErrorBody)(JSON.parse(events.at(-1)!.data)))
  })
})
