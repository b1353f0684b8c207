import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import {
  ApiError,
  ChunkDecodeError,
  decodeMessagesStream,
  MessagesStream,
  StreamTruncated,
  ToolInputError,
} from "../src/index.ts"
import { checkEveryCut, type Decoders, decodeBoth, messagesEvents, sseEvent, sseEvents } from "./protocol-support.ts"
import { pieceStream, reads, testBody } from "./support.ts"

const decoders: Decoders = {
  effect: (self, options) => MessagesStream.decode(self, options ?? {}),
  facade: (body, options) => decodeMessagesStream(body, options ?? {}),
}

const fold = (text: string) =>
  Effect.runPromise(Effect.result(MessagesStream.accumulate(MessagesStream.decode(pieceStream(reads(text))))))

describe("Messages streams", () => {
  it("decodes every event of a stream in strict mode, ping included, and stops at message_stop", async () => {
    const events = messagesEvents()
    for (const named of [true, false]) {
      const { items, error } = await decodeBoth(decoders, sseEvents(events, named))
      assert.equal(error, undefined, String(error))
      assert.deepEqual(items, events)
    }
    const body = testBody(reads(sseEvents(events), "event: ping\ndata: {}\n\n"))
    const got: Array<unknown> = []
    for await (const e of decodeMessagesStream(body.body)) got.push(e)
    assert.deepEqual(got, events)
    assert.equal(body.state.cancelled, true)
  })

  it("folds a stream into its message: thinking with its signature, text, tool input parsed, stop reason, usage", async () => {
    const result = await fold(sseEvents(messagesEvents()))
    assert.ok(Result.isSuccess(result), String(Result.isFailure(result) && result.failure))
    const message = result.success
    assert.equal(message.id, "msg_1")
    assert.equal(message.model, "friendli-model")
    assert.deepEqual(message.content, [
      { type: "thinking", thinking: "Weather means a tool call.", signature: "sig-abc" },
      { type: "text", text: "Checking now." },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Seoul" } },
    ])
    assert.equal(message.stop_reason, "tool_use")
    assert.equal(message.stop_sequence, null)
    // message_delta's usage counts are running totals: they replace message_start's, the others stay.
    assert.deepEqual(message.usage, { input_tokens: 25, output_tokens: 48 })
    const acc = MessagesStream.accumulator()
    for (const e of messagesEvents()) acc.add(e as MessagesStream.MessagesStreamEvent)
    assert.deepEqual(acc.result(), message)
  })

  it("keeps a tool call's start input when no input_json_delta came", async () => {
    const events = messagesEvents([])
    const result = await fold(sseEvents(events))
    assert.ok(Result.isSuccess(result))
    assert.deepEqual(result.success.content[2]?.input, {})
  })

  it("is StreamTruncated at every cut before message_stop, after every whole event", async () => {
    const events = messagesEvents()
    const cuts = await checkEveryCut(decoders, sseEvents(events), events, () => "message_stop")
    assert.equal(cuts, events.length * 2 - 1, `cuts checked: ${cuts}`)
  })

  it("fails an error event with ApiError, retryable for overloaded_error and api_error (a 500) and not for invalid_request_error", async () => {
    const before = messagesEvents().slice(0, 4)
    for (const [type, retryable] of [
      ["overloaded_error", true],
      ["api_error", true],
      ["invalid_request_error", false],
    ] as const) {
      const error = { type: "error", error: { type, message: `Failure: ${type}` } }
      for (const validation of ["strict", "compatible"] as const) {
        const got = await decodeBoth(decoders, sseEvents(before) + sseEvent(error), { validation })
        assert.ok(got.error instanceof ApiError, `${type}: ${String(got.error)}`)
        assert.equal(got.error.type, type)
        assert.equal(got.error.retryable, retryable, type)
        assert.equal(got.error.eventIndex, before.length)
        assert.deepEqual(got.items, before)
      }
    }
  })

  it("fails an unknown event type in strict mode naming it, and delivers it as unknown in compatible mode", async () => {
    const events = messagesEvents()
    const odd = { type: "message_annotation", note: "extra" }
    const text = sseEvents([...events.slice(0, 3), odd, ...events.slice(3)])
    const strict = await decodeBoth(decoders, text)
    assert.ok(strict.error instanceof ChunkDecodeError, String(strict.error))
    assert.equal(strict.error.reason, "SchemaMismatch")
    assert.ok(strict.error.message.includes('"message_annotation"'), strict.error.message)
    assert.deepEqual(strict.items, events.slice(0, 3))
    const compatible = await decodeBoth(decoders, text, { validation: "compatible" })
    assert.equal(compatible.error, undefined, String(compatible.error))
    assert.deepEqual(compatible.items[3], { type: "unknown", eventType: "message_annotation", data: odd })
  })

  it("reads in compatible mode the block and delta types Friendli's description does not list", async () => {
    const events = [
      ...messagesEvents().slice(0, 1),
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "server_tool_use", id: "srv_1", name: "web_search", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"query":"weather"}' },
      },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "pause_turn" }, usage: { output_tokens: 3 } },
      { type: "message_stop" },
    ]
    const strict = await decodeBoth(decoders, sseEvents(events))
    assert.ok(strict.error instanceof ChunkDecodeError)
    const compatible = await decodeBoth(decoders, sseEvents(events), { validation: "compatible" })
    assert.equal(compatible.error, undefined, String(compatible.error))
    assert.deepEqual(compatible.items, events)
    const message = await Effect.runPromise(
      MessagesStream.accumulate(
        MessagesStream.decode(pieceStream(reads(sseEvents(events))), { validation: "compatible" }),
      ),
    )
    assert.deepEqual(message.content, [
      { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "weather" } },
    ])
    assert.equal(message.stop_reason, "pause_turn")
  })

  it("fails the fold with ToolInputError naming the tool when its input is not JSON", async () => {
    const result = await fold(sseEvents(messagesEvents(['{"city"', ": Seoul}"])))
    assert.ok(Result.isFailure(result))
    const failure = result.failure
    assert.ok(failure instanceof ToolInputError, String(failure))
    assert.equal(failure.callId, "toolu_1")
    assert.equal(failure.name, "get_weather")
    assert.equal(failure.index, 2)
    assert.equal(failure.text, '{"city": Seoul}')
    assert.ok(failure.message.includes("toolu_1"), failure.message)
  })

  it("accepts a clean end before message_stop with requireDone: false", async () => {
    const events = messagesEvents().slice(0, -1)
    const strictEnd = await decodeBoth(decoders, sseEvents(events))
    assert.ok(strictEnd.error instanceof StreamTruncated)
    const lenient = await decodeBoth(decoders, sseEvents(events), { requireDone: false })
    assert.equal(lenient.error, undefined)
    assert.deepEqual(lenient.items, events)
  })
})
