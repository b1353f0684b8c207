// The Responses API of the mock: typed events that the generated Schemas accept, sequence numbers in order, the
// terminal event (completed, incomplete, failed), function calls, the three deployments and request validation.
import assert from "node:assert/strict"
import { ResponsesStreamEvent, ResponsesSuccess } from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import { Schema } from "effect"
import { newMock, post, readStream } from "./helpers.ts"

const decodeEvent = Schema.decodeUnknownSync(ResponsesStreamEvent, { errors: "all" })
const decodeResponse = Schema.decodeUnknownSync(ResponsesSuccess, { errors: "all" })

const PATHS = ["/serverless/v1/responses", "/dedicated/v1/responses", "/v1/responses"] as const

const weather = {
  type: "function",
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
}

type Event = Record<string, unknown> & { type: string }

const stream = async (body: Record<string, unknown>, path: string = PATHS[0], fault?: string) => {
  const mock = newMock()
  const res = await post(
    mock,
    path,
    { model: "ep1", stream: true, ...body },
    fault ? { headers: { "x-mock-fault": fault } } : {},
  )
  assert.equal(res.status, 200, `status of ${path}`)
  assert.equal(res.headers.get("content-type"), "text/event-stream")
  const read = await readStream(res)
  return { ...read, events: read.chunks as Array<Event>, frames: read.events }
}

describe("the Responses API", () => {
  it("streams typed events on every deployment, each accepted by ResponsesStreamEvent, ending in response.completed", async () => {
    for (const path of PATHS) {
      const { events, frames, done } = await stream({ input: "Tell me about rivers" }, path)
      assert.equal(done, false, "a Responses stream has no [DONE]")
      for (const e of events) decodeEvent(e)
      assert.deepEqual(
        events.map((e) => e.sequence_number),
        events.map((_, i) => i),
      )
      // every event is framed with its type as the event name, as the API does
      for (const f of frames) assert.equal(f.event, (JSON.parse(f.data) as Event).type)
      assert.equal(events[0]!.type, "response.created")
      assert.equal(events[1]!.type, "response.in_progress")
      assert.equal(events.at(-1)!.type, "response.completed")
      const deltas = events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta as string)
      assert.ok(deltas.length > 1, `${deltas.length} deltas`)
      const final = (events.at(-1)!.response as { output: Array<{ content: Array<{ text: string }> }> }).output
      assert.equal(final.at(-1)!.content[0]!.text, deltas.join(""))
    }
  })

  it("answers the same response without stream, accepted by ResponsesSuccess, equal to the stream's last snapshot", async () => {
    const mock = newMock({ clock: () => 1_700_000_000_000 })
    const body = { model: "m", input: [{ role: "user", content: "Say something" }], reasoning: { effort: "low" } }
    const { chunks } = await readStream(await post(mock, PATHS[0], { ...body, stream: true }))
    const whole = (await (await post(mock, PATHS[0], body)).json()) as Record<string, unknown>
    decodeResponse(whole)
    const last = chunks.at(-1)!.response as Record<string, unknown>
    assert.deepEqual(whole.output, last.output)
    assert.deepEqual(whole.usage, last.usage)
    assert.equal(whole.status, "completed")
  })

  it("streams a reasoning item before the message when reasoning is asked for", async () => {
    const { events } = await stream({ input: "Why is the sky blue?", reasoning: { effort: "medium" } })
    const added = events.filter((e) => e.type === "response.output_item.added").map((e) => (e.item as Event).type)
    assert.deepEqual(added, ["reasoning", "message"])
    const reasoning = events
      .filter((e) => e.type === "response.reasoning_text.delta")
      .map((e) => e.delta)
      .join("")
    const done = events.find((e) => e.type === "response.reasoning_text.done")!
    assert.equal(done.text, reasoning)
    const usage = (events.at(-1)!.response as { usage: { output_tokens_details: { reasoning_tokens: number } } }).usage
    assert.ok(usage.output_tokens_details.reasoning_tokens > 0)
  })

  it("calls a function named in the prompt: argument deltas join to the done arguments, which are JSON", async () => {
    const { events } = await stream({ input: "use get_weather for Paris", tools: [weather] })
    const item = events.find((e) => e.type === "response.output_item.added")!.item as Event
    assert.equal(item.type, "function_call")
    assert.equal(item.name, "get_weather")
    const args = events
      .filter((e) => e.type === "response.function_call_arguments.delta")
      .map((e) => e.delta)
      .join("")
    const done = events.find((e) => e.type === "response.function_call_arguments.done")!
    assert.equal(done.arguments, args)
    assert.equal(done.name, "get_weather")
    assert.equal(typeof (JSON.parse(args) as { city: unknown }).city, "string")
    assert.equal(events.at(-1)!.type, "response.completed")
  })

  it("ends with response.incomplete and the reason when max_output_tokens cuts the answer", async () => {
    const { events } = await stream({ input: "Hello", max_output_tokens: 3 })
    const last = events.at(-1)!
    assert.equal(last.type, "response.incomplete")
    const response = last.response as { status: string; incomplete_details: { reason: string }; usage: Event }
    assert.equal(response.status, "incomplete")
    assert.equal(response.incomplete_details.reason, "max_output_tokens")
    assert.equal(response.usage.output_tokens, 3)
  })

  it("sends response.failed (event and data) for the error fault, and nothing after it", async () => {
    const { events, frames } = await stream({ input: "Hello" }, PATHS[0], "error:4")
    assert.equal(events.length, 5)
    const last = events.at(-1)!
    decodeEvent(last)
    assert.equal(frames.at(-1)!.event, "response.failed")
    assert.equal(last.sequence_number, 4)
    const response = last.response as { status: string; error: { code: string; message: string } }
    assert.equal(response.status, "failed")
    assert.equal(response.error.code, "server_error")
  })

  it("cuts the stream before its terminal event with truncate, and frames it without event lines with error:K:data", async () => {
    const cut = await stream({ input: "Hello" }, PATHS[0], "truncate:5")
    assert.equal(cut.events.length, 5)
    const terminal = ["response.completed", "response.incomplete", "response.failed"]
    assert.ok(!cut.events.some((e) => terminal.includes(e.type)))
    const data = await stream({ input: "Hello" }, PATHS[0], "error:2:data")
    assert.equal(data.frames.at(-1)!.event, undefined)
    assert.equal(data.events.at(-1)!.type, "response.failed")
  })

  it("answers 422 naming the field for a body its Schema refuses, and for a missing model off the container", async () => {
    const mock = newMock()
    const bad = await post(mock, PATHS[0], { model: "m", input: 5 })
    assert.equal(bad.status, 422)
    const detail = ((await bad.json()) as { detail: Array<{ loc: Array<string> }> }).detail
    assert.deepEqual(detail[0]!.loc.slice(0, 2), ["body", "input"])
    const noModel = await post(mock, PATHS[1], { input: "x" })
    assert.equal(noModel.status, 422)
    const container = await post(mock, PATHS[2], { input: "x" })
    assert.equal(container.status, 200)
    assert.equal(((await container.json()) as { model: string }).model, "mock-model")
  })
})
