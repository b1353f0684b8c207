// The client's Responses, Messages and transcription streams against a fake server (a `fetch` function; no
// socket): what is sent, the typed events, the final response / message / transcript, the re-encoded SSE, and the
// typed failures (cut, in-stream error, arguments that are not JSON).
import assert from "node:assert/strict"
import {
  ApiError,
  decodeMessagesStream,
  decodeResponsesStream,
  decodeTranscriptionStream,
  StreamTruncated,
  ToolInputError,
} from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { collect, readBody } from "@friendli-stream/test-harness/fixtures"
import {
  messagesEvents,
  responsesEvents,
  sseEvent,
  sseEvents,
  transcriptionBody,
} from "@friendli-stream/test-harness/protocol-events"
import { BASE, fakeServerClient } from "./client-support.ts"

const sseAnswer = (text: string) => () =>
  new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } })

const readAll = async (body: ReadableStream<Uint8Array>): Promise<string> => (await readBody(body)).text

const MESSAGES_REQUEST = { model: "m", max_tokens: 64, messages: [{ role: "user" as const, content: "Weather?" }] }

describe("responses.stream", () => {
  it("posts stream: true to /v1/responses and delivers the typed events, folded by finalResponse()", async () => {
    const events = responsesEvents()
    const { client, seen } = fakeServerClient([sseAnswer(sseEvents(events))])
    const handle = client.responses.stream({ model: "m", input: "Weather in Seoul?" })
    const { items, error } = await collect(handle)
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((e) => e.type),
      events.map((e) => e.type),
    )
    const final = await handle.finalResponse()
    assert.equal(final.status, "completed")
    const call = final.output.find((item) => item.type === "function_call")
    assert.ok(call !== undefined && call.type === "function_call")
    assert.deepEqual(call.parsed_arguments, { city: "Seoul" })
    assert.equal(seen[0]!.url, `${BASE}/v1/responses`)
    assert.equal(seen[0]!.headers.accept, "text/event-stream")
    assert.equal(seen[0]!.json!.stream, true)
  })

  it("re-encodes the events as event: TYPE + data, without [DONE], which decode back to the same events", async () => {
    const events = responsesEvents()
    const { client } = fakeServerClient([sseAnswer(sseEvents(events))])
    const text = await readAll(client.responses.stream({ model: "m", input: "x" }).toReadableStream() as never)
    assert.ok(!text.includes("[DONE]"))
    assert.match(text, /^event: response\.created\ndata: \{/)
    const again: Array<unknown> = []
    for await (const e of decodeResponsesStream(new Response(text).body!)) again.push(e)
    assert.equal(again.length, events.length)
  })

  it("fails a stream cut before its terminal event with StreamTruncated, after every event, and finalResponse with it", async () => {
    const events = responsesEvents().slice(0, 6)
    const { client } = fakeServerClient([sseAnswer(sseEvents(events))])
    const handle = client.responses.stream({ model: "m", input: "x" })
    const { items, error } = await collect(handle)
    assert.equal(items.length, 6)
    assert.ok(error instanceof StreamTruncated, String(error))
    await assert.rejects(handle.finalResponse(), StreamTruncated)
  })

  it("delivers every event when a function call's arguments are not JSON; finalResponse rejects with ToolInputError", async () => {
    const { client } = fakeServerClient([sseAnswer(sseEvents(responsesEvents(['{"city":', "Seoul"])))])
    const handle = client.responses.stream({ model: "m", input: "x" })
    const { items, error } = await collect(handle)
    assert.equal(error, undefined)
    assert.equal(items.at(-1)!.type, "response.completed")
    await assert.rejects(handle.finalResponse(), ToolInputError)
  })
})

describe("messages.stream", () => {
  it("delivers the events and finalMessage() folds thinking, text and the tool input", async () => {
    const events = messagesEvents()
    const { client, seen } = fakeServerClient([sseAnswer(sseEvents(events))])
    const handle = client.messages.stream(MESSAGES_REQUEST)
    const final = await handle.finalMessage()
    assert.equal(final.stop_reason, "tool_use")
    assert.deepEqual(
      final.content.map((b) => b.type),
      ["thinking", "text", "tool_use"],
    )
    const tool = final.content[2]!
    assert.ok(tool.type === "tool_use")
    assert.deepEqual(tool.input, { city: "Seoul" })
    assert.equal(seen[0]!.url, `${BASE}/v1/messages`)
    assert.equal(seen[0]!.json!.stream, true)
  })

  it("retries an overloaded_error before the first event, and fails with ApiError after one, keeping what came", async () => {
    const overloaded = sseEvent({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })
    const events = messagesEvents()
    const { client, seen } = fakeServerClient([sseAnswer(overloaded), sseAnswer(sseEvents(events))])
    const { items, error } = await collect(client.messages.stream(MESSAGES_REQUEST))
    assert.equal(error, undefined)
    assert.equal(items.length, events.length)
    assert.equal(seen.length, 2)
    const late = fakeServerClient([sseAnswer(sseEvents(events.slice(0, 3)) + overloaded)])
    const failed = await collect(late.client.messages.stream(MESSAGES_REQUEST))
    assert.equal(failed.items.length, 3)
    assert.ok(failed.error instanceof ApiError, String(failed.error))
    assert.match(failed.error.message, /Overloaded/)
    assert.equal(late.seen.length, 1)
  })

  it("re-encodes the events as event: TYPE + data without [DONE]", async () => {
    const events = messagesEvents()
    const { client } = fakeServerClient([sseAnswer(sseEvents(events))])
    const text = await readAll(client.messages.stream(MESSAGES_REQUEST).toReadableStream() as never)
    assert.ok(!text.includes("[DONE]"))
    const again: Array<{ type: string }> = []
    for await (const e of decodeMessagesStream(new Response(text).body!)) again.push(e)
    assert.deepEqual(
      again.map((e) => e.type),
      events.map((e) => e.type),
    )
  })
})

describe("audio.transcriptions.stream", () => {
  it("uploads with stream=true and folds the transcript; toReadableStream ends with [DONE]", async () => {
    const { client, seen } = fakeServerClient([sseAnswer(transcriptionBody())])
    const handle = client.audio.transcriptions.stream({ model: "w", file: new Uint8Array([1, 2]) })
    const final = await handle.finalTranscript()
    assert.equal(final.text, "Hello world.")
    assert.equal((final.usage as { total_tokens: number }).total_tokens, 22)
    assert.equal(seen[0]!.form!.get("stream"), "true")
    assert.equal(seen[0]!.headers.accept, "text/event-stream")
    const again = fakeServerClient([sseAnswer(transcriptionBody())])
    const text = await readAll(
      again.client.audio.transcriptions.stream({ model: "w", file: new Uint8Array([1]) }).toReadableStream() as never,
    )
    assert.match(text, /data: \[DONE\]\n\n$/)
    const events: Array<unknown> = []
    for await (const e of decodeTranscriptionStream(new Response(text).body!)) events.push(e)
    assert.equal(events.length, 3)
  })

  it("fails with StreamTruncated when [DONE] does not follow transcript.text.done", async () => {
    const { client } = fakeServerClient([sseAnswer(transcriptionBody().replace("data: [DONE]\n\n", ""))])
    const { items, error } = await collect(
      client.audio.transcriptions.stream({ model: "w", file: new Uint8Array([1]) }),
    )
    assert.equal(items.length, 3)
    assert.ok(error instanceof StreamTruncated, String(error))
  })
})
