import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import {
  ApiError,
  ChunkDecodeError,
  decodeResponsesStream,
  ResponsesStream,
  SseError,
  StreamTruncated,
  ToolInputError,
} from "../src/index.ts"
import {
  checkEveryCut,
  type Decoders,
  decodeBoth,
  lifecycle,
  responsesEvents,
  sseEvent,
  sseEvents,
  usage,
} from "./protocol-support.ts"
import { pieceStream, reads, testBody } from "./support.ts"

const decoders: Decoders = {
  effect: (self, options) => ResponsesStream.decode(self, options ?? {}),
  facade: (body, options) => decodeResponsesStream(body, options ?? {}),
}

const fold = (text: string, options: { readonly validation?: "strict" | "compatible" } = {}) =>
  Effect.runPromise(
    Effect.result(ResponsesStream.accumulate(ResponsesStream.decode(pieceStream(reads(text)), options))),
  )

describe("Responses streams", () => {
  it("decodes every event of a stream in strict mode, with or without event: lines, and stops at response.completed", async () => {
    const events = responsesEvents()
    for (const named of [true, false]) {
      const { items, error } = await decodeBoth(decoders, sseEvents(events, named))
      assert.equal(error, undefined, String(error))
      assert.deepEqual(items, events)
    }
    // A [DONE] (OpenRouter) or anything else after the terminal event is not read, and the body is cancelled.
    const body = testBody(reads(sseEvents(events), "data: [DONE]\n\n", "data: not json\n\n"))
    const after: Array<unknown> = []
    for await (const e of decodeResponsesStream(body.body)) after.push(e)
    assert.deepEqual(after, events)
    assert.equal(body.state.cancelled, true)
    // The same in one read, an oversized line after the end included.
    const oneRead = `${sseEvents(events)}data: not json\n\ndata: ${"x".repeat(5_000)}\n\n`
    const tail = await decodeBoth(decoders, oneRead, { maxEventBytes: 4_096 })
    assert.equal(tail.error, undefined, String(tail.error))
    assert.deepEqual(tail.items, events)
  })

  it("folds a stream into its response: reasoning, text and a function call with its arguments parsed", async () => {
    const result = await fold(sseEvents(responsesEvents()))
    assert.ok(Result.isSuccess(result), String(Result.isFailure(result) && result.failure))
    const response = result.success
    assert.equal(response.id, "resp_1")
    assert.equal(response.status, "completed")
    assert.deepEqual(response.usage, usage)
    assert.equal(response.output_text, "Let me check.")
    assert.deepEqual(
      response.output.map((item) => item.type),
      ["reasoning", "message", "function_call"],
    )
    assert.deepEqual(response.output[0]?.content, [{ type: "reasoning_text", text: "The user wants the weather." }])
    assert.deepEqual(response.output[1]?.content, [{ type: "output_text", text: "Let me check." }])
    const call = response.output[2]
    assert.equal(call?.arguments, '{"city":"Seoul"}')
    assert.deepEqual(call?.parsed_arguments, { city: "Seoul" })
    assert.equal(call?.name, "get_weather")
    // The plain accumulator folds the same.
    const acc = ResponsesStream.accumulator()
    for (const e of responsesEvents()) acc.add(e as ResponsesStream.ResponsesStreamEvent)
    assert.deepEqual(acc.result(), response)
  })

  it("parses a call's arguments at response.completed when the server sent no done event for it", async () => {
    const events = responsesEvents().filter((e) => e.type !== "response.function_call_arguments.done")
    const result = await fold(sseEvents(events))
    assert.ok(Result.isSuccess(result), String(Result.isFailure(result) && result.failure))
    assert.deepEqual(result.success.output[2]?.parsed_arguments, { city: "Seoul" })
    // Before the response completed, the call is not done: its arguments stay unparsed.
    const acc = ResponsesStream.accumulator()
    for (const e of events.slice(0, -1)) acc.add(e as ResponsesStream.ResponsesStreamEvent)
    assert.equal(acc.result().output[2]?.parsed_arguments, undefined)
    assert.equal(acc.result().output[2]?.arguments, '{"city":"Seoul"}')
  })

  it("is StreamTruncated at every cut before response.completed, after every whole event", async () => {
    const events = responsesEvents()
    const cuts = await checkEveryCut(decoders, sseEvents(events), events, () => "response.completed")
    assert.equal(cuts, events.length * 2 - 1, `cuts checked: ${cuts}`)
  })

  it("is StreamTruncated when [DONE] comes before the terminal event, and accepts a clean end with requireDone: false", async () => {
    const events = responsesEvents().slice(0, 5)
    const done = await decodeBoth(decoders, `${sseEvents(events)}data: [DONE]\n\n`)
    assert.ok(done.error instanceof StreamTruncated, String(done.error))
    assert.ok(done.error.message.includes("[DONE]"), done.error.message)
    assert.deepEqual(done.items, events)
    const lenient = await decodeBoth(decoders, sseEvents(events), { requireDone: false })
    assert.equal(lenient.error, undefined)
    assert.deepEqual(lenient.items, events)
  })

  it("delivers response.incomplete as the last event and keeps its reason, without an error", async () => {
    const events = [
      ...responsesEvents().slice(0, -1),
      lifecycle("response.incomplete", "incomplete", { incomplete_details: { reason: "max_output_tokens" }, usage }),
    ]
    const { items, error } = await decodeBoth(decoders, sseEvents(events))
    assert.equal(error, undefined, String(error))
    assert.deepEqual(items, events)
    const result = await fold(sseEvents(events))
    assert.ok(Result.isSuccess(result))
    assert.equal(result.success.status, "incomplete")
    assert.deepEqual(result.success.incomplete_details, { reason: "max_output_tokens" })
  })

  it("fails response.failed with ApiError, retryable as its code says, after the events before it", async () => {
    const before = responsesEvents().slice(0, 4)
    for (const [code, retryable] of [
      ["server_error", true],
      ["rate_limit_exceeded", true],
      ["invalid_prompt", false],
    ] as const) {
      const failed = lifecycle("response.failed", "failed", { error: { code, message: `it failed: ${code}` } })
      for (const validation of ["strict", "compatible"] as const) {
        const { items, error } = await decodeBoth(decoders, sseEvents([...before, failed]), { validation })
        assert.ok(error instanceof ApiError, `${code} (${validation}): ${String(error)}`)
        assert.equal(error.retryable, retryable, code)
        assert.equal(error.code, code)
        assert.equal(error.eventIndex, before.length)
        assert.ok(error.message.includes(`it failed: ${code}`), error.message)
        assert.deepEqual(items, before)
      }
    }
  })

  it("fails an error event (with or without an event: line) with ApiError", async () => {
    const before = responsesEvents().slice(0, 2)
    const error = { type: "error", code: "server_error", message: "The model crashed", sequence_number: 2 }
    for (const named of [true, false]) {
      const got = await decodeBoth(decoders, sseEvents(before) + sseEvent(error, named))
      assert.ok(got.error instanceof ApiError, String(got.error))
      assert.equal(got.error.retryable, true)
      assert.ok(got.error.message.includes("The model crashed"))
      assert.deepEqual(got.items, before)
    }
  })

  it("fails an unknown event type in strict mode naming it, and delivers it as unknown in compatible mode", async () => {
    const events = responsesEvents()
    const odd = { type: "response.web_search_call.searching", output_index: 3, sequence_number: 99 }
    const text = sseEvents([...events.slice(0, 2), odd, ...events.slice(2)])
    const strict = await decodeBoth(decoders, text)
    assert.ok(strict.error instanceof ChunkDecodeError, String(strict.error))
    assert.equal(strict.error.reason, "SchemaMismatch")
    assert.ok(strict.error.message.includes('"response.web_search_call.searching"'), strict.error.message)
    assert.equal(strict.error.eventIndex, 2)
    assert.deepEqual(strict.items, events.slice(0, 2))
    const compatible = await decodeBoth(decoders, text, { validation: "compatible" })
    assert.equal(compatible.error, undefined, String(compatible.error))
    assert.deepEqual(compatible.items[2], { type: "unknown", eventType: odd.type, data: odd })
    assert.equal(compatible.items.length, events.length + 1)
  })

  it("fails an event of a known type but the wrong shape with SchemaMismatch naming the type", async () => {
    const events = responsesEvents()
    const broken = { ...(events[10] as object), delta: 42 }
    const { items, error } = await decodeBoth(decoders, sseEvents([...events.slice(0, 10), broken]))
    assert.ok(error instanceof ChunkDecodeError, String(error))
    assert.equal(error.reason, "SchemaMismatch")
    assert.ok(error.message.includes('"response.output_text.delta"'), error.message)
    assert.ok(error.explanation.includes("delta"), error.explanation)
    assert.deepEqual(items, events.slice(0, 10))
  })

  it("fails an event longer than maxEventBytes with SseError EventTooLarge, after the events before it", async () => {
    const events = responsesEvents()
    const long = { ...(events[10] as object), delta: "x".repeat(5_000) }
    const { items, error } = await decodeBoth(decoders, sseEvents([...events.slice(0, 10), long]), {
      maxEventBytes: 4_096,
    })
    assert.ok(error instanceof SseError, String(error))
    assert.equal(error.reason, "EventTooLarge")
    assert.deepEqual(items, events.slice(0, 10))
  })

  it("fails the fold with ToolInputError naming the call when its arguments are not JSON", async () => {
    const text = sseEvents(responsesEvents(['{"city":', '"Seoul"']))
    const result = await fold(text)
    assert.ok(Result.isFailure(result))
    const failure = result.failure
    assert.ok(failure instanceof ToolInputError, String(failure))
    assert.equal(failure.reason, "MalformedJson")
    assert.equal(failure.callId, "call_1")
    assert.equal(failure.name, "get_weather")
    assert.equal(failure.index, 2)
    assert.equal(failure.text, '{"city":"Seoul"')
    assert.ok(failure.message.includes('"get_weather"'), failure.message)
    const acc = ResponsesStream.accumulator()
    assert.throws(() => {
      for (const e of responsesEvents(['{"city":', '"Seoul"'])) acc.add(e as ResponsesStream.ResponsesStreamEvent)
    }, ToolInputError)
  })
})
