// The Messages API of the mock: Anthropic-style events that the generated Schemas accept (ping aside, which the
// description leaves out), thinking with its signature, tool use, the error event and a cut stream.
import assert from "node:assert/strict"
import { MessagesStreamEvent, ServerlessMessagesSuccess } from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import { Schema } from "effect"
import { newMock, post, readStream } from "./helpers.ts"

const decodeEvent = Schema.decodeUnknownSync(MessagesStreamEvent, { errors: "all" })
const decodeMessage = Schema.decodeUnknownSync(ServerlessMessagesSuccess, { errors: "all" })

const PATHS = ["/serverless/v1/messages", "/dedicated/v1/messages", "/v1/messages"] as const

type Event = Record<string, unknown> & { type: string }

const weather = {
  name: "get_weather",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
}

const body = (extra: Record<string, unknown> = {}) => ({
  model: "ep1",
  max_tokens: 64,
  messages: [{ role: "user", content: "Hello there" }],
  ...extra,
})

const stream = async (extra: Record<string, unknown>, path: string = PATHS[0], fault?: string) => {
  const mock = newMock()
  const res = await post(
    mock,
    path,
    body({ stream: true, ...extra }),
    fault ? { headers: { "x-mock-fault": fault } } : {},
  )
  assert.equal(res.status, 200)
  const read = await readStream(res)
  return { ...read, events: read.chunks as Array<Event>, frames: read.events }
}

const join = (events: ReadonlyArray<Event>, kind: string, field: string) =>
  events
    .filter((e) => e.type === "content_block_delta" && (e.delta as Event).type === kind)
    .map((e) => (e.delta as Record<string, string>)[field])
    .join("")

describe("the Messages API", () => {
  it("streams message_start … message_stop on every deployment, each event accepted by MessagesStreamEvent", async () => {
    for (const path of PATHS) {
      const { events, frames, done } = await stream({}, path)
      assert.equal(done, false, "a Messages stream has no [DONE]")
      for (const f of frames) assert.equal(f.event, (JSON.parse(f.data) as Event).type)
      for (const e of events) if (e.type !== "ping") decodeEvent(e)
      assert.equal(events[0]!.type, "message_start")
      assert.equal(events.at(-1)!.type, "message_stop")
      assert.equal(events.at(-2)!.type, "message_delta")
      assert.equal(events.filter((e) => e.type === "ping").length, 1)
      assert.ok(join(events, "text_delta", "text").length > 0)
    }
  })

  it("answers the same message without stream, accepted by the Messages Schema, equal to what the stream adds up to", async () => {
    const mock = newMock({ clock: () => 1_700_000_000_000 })
    const extra = { thinking: { type: "enabled", budget_tokens: 8 } }
    const { chunks } = await readStream(await post(mock, PATHS[0], body({ ...extra, stream: true })))
    const events = chunks as Array<Event>
    const whole = (await (await post(mock, PATHS[0], body(extra))).json()) as Record<string, unknown>
    decodeMessage(whole)
    const content = whole.content as Array<Record<string, string>>
    assert.deepEqual(
      content.map((b) => b.type),
      ["thinking", "text"],
    )
    assert.equal(content[0]!.thinking, join(events, "thinking_delta", "thinking"))
    assert.equal(content[0]!.signature, join(events, "signature_delta", "signature"))
    assert.equal(content[1]!.text, join(events, "text_delta", "text"))
    const delta = events.find((e) => e.type === "message_delta")!
    assert.equal((delta.delta as Event).stop_reason, whole.stop_reason)
    assert.equal(
      (delta.usage as { output_tokens: number }).output_tokens,
      (whole.usage as { output_tokens: number }).output_tokens,
    )
  })

  it("uses a tool named in the prompt: input_json_delta pieces join to the JSON input", async () => {
    const { events } = await stream({ messages: [{ role: "user", content: "call get_weather" }], tools: [weather] })
    const start = events.find((e) => e.type === "content_block_start")!.content_block as Event
    assert.equal(start.type, "tool_use")
    assert.equal(start.name, "get_weather")
    const input = JSON.parse(join(events, "input_json_delta", "partial_json")) as { city: unknown }
    assert.equal(typeof input.city, "string")
    assert.equal((events.find((e) => e.type === "message_delta")!.delta as Event).stop_reason, "tool_use")
  })

  it("says max_tokens when max_tokens cut the answer", async () => {
    const { events } = await stream({ max_tokens: 2 })
    assert.equal(join(events, "text_delta", "text").length > 0, true)
    assert.equal((events.find((e) => e.type === "message_delta")!.delta as Event).stop_reason, "max_tokens")
  })

  it("sends event: error with an overloaded_error for the error fault, and ends there", async () => {
    const { events, frames } = await stream({}, PATHS[0], "error:3")
    assert.equal(events.length, 4)
    assert.equal(frames.at(-1)!.event, "error")
    decodeEvent(events.at(-1))
    assert.equal((events.at(-1)!.error as Event).type, "overloaded_error")
  })

  it("ends before message_stop with truncate, and keeps the events with keep-alives and 1-byte writes", async () => {
    const cut = await stream({}, PATHS[0], "truncate:4")
    assert.equal(cut.events.length, 4)
    assert.ok(!cut.events.some((e) => e.type === "message_stop"))
    const whole = await stream({})
    const slow = await stream({}, PATHS[0], "comments,bytes:1,eol:crlf")
    // the same events (but message_start, whose id is the request's)
    assert.deepEqual(slow.events.slice(1), whole.events.slice(1))
    assert.equal(slow.events.length, whole.events.length)
    assert.match(slow.text, /^: keep-alive\r\n/)
  })

  it("answers 422 naming the field for a body its Schema refuses", async () => {
    const mock = newMock()
    const res = await post(mock, PATHS[0], body({ messages: [{ role: "robot", content: "x" }] }))
    assert.equal(res.status, 422)
    const detail = ((await res.json()) as { detail: Array<{ loc: Array<string | number> }> }).detail
    assert.deepEqual(detail[0]!.loc.slice(0, 3), ["body", "messages", 0])
  })
})
