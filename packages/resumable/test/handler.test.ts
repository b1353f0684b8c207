import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import {
  eventsOf,
  type Harness,
  post,
  readThenDrop,
  resume,
  sentData,
  startHarness,
  streamUrl,
  uniquePrompt,
  upstreamOf,
} from "./support.ts"

describe("ResumableHandler", () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ retentionMs: 60_000 })
  })
  afterAll(async () => {
    await h?.close()
  })

  it("answers a start with the mock's events, each with an id, a Location, and [DONE] last", async () => {
    const prompt = uniquePrompt("uninterrupted")
    const response = await post(h, { prompt, max_tokens: 8 })
    assert.equal(response.status, 200)
    assert.equal(response.headers.get("content-type"), "text/event-stream")
    const url = streamUrl(h, response)
    const events = await eventsOf(response)
    const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
    assert.deepEqual(
      events.map((e) => e.data),
      sentData(record),
    )
    assert.equal(events.at(-1)?.data, "[DONE]")
    const streamId = url.slice(url.lastIndexOf("/") + 1)
    assert.deepEqual(
      events.map((e) => e.id),
      events.map((_, i) => `${streamId}.${i + 1}`),
    )
  })

  it("resumes a dropped reader after its Last-Event-ID: every event exactly once, in order, then 204 after the end", async () => {
    const prompt = uniquePrompt("dropped")
    const controller = new AbortController()
    const response = await post(h, { prompt, max_tokens: 12, faults: "delay:5" }, controller.signal)
    const url = streamUrl(h, response)
    const head = await readThenDrop(response, 3, controller)
    assert.equal(head.length, 3)
    const rest = await eventsOf(await resume(url, head.at(-1)?.id))
    const whole = await eventsOf(await resume(url))
    assert.deepEqual([...head, ...rest], whole)
    const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
    assert.equal(record.outcome, "completed", "the upstream went on when the reader went away")
    assert.deepEqual(
      whole.map((e) => e.data),
      sentData(record),
    )
    const after = await resume(url, whole.at(-1)?.id)
    assert.equal(after.status, 204)
  })
})
