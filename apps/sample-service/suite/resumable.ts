// The app's resumable streams in one process (the memory store), over real sockets: ids and Location, a reader
// dropped and resumed with Last-Event-ID, a resume after the end, a replay, cancel, and the bad ids.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import type { RunningApp } from "../src/index.ts"
import type { AppUnderTest } from "./app.ts"
import {
  cancel,
  endReasonOf,
  type IdEvent,
  isEnd,
  locationOf,
  readAll,
  readSome,
  resume,
  seqOf,
  start,
} from "./events.ts"
import { textOf } from "./sse.ts"

const STORY = { prompt: "Tell me a story", max_tokens: 24 }

/** Checks that the events are the seqs `from`, `from + 1`, … of one stream, each once, and end with one end. */
export const assertWhole = (events: ReadonlyArray<IdEvent>, streamId: string, from = 1): void => {
  events.forEach((e, i) => {
    assert.equal(e.id, `${streamId}.${from + i}`, `event ${i} of ${events.length}`)
  })
  assert.ok(events.length > 0 && isEnd(events.at(-1)!), `the last event is an end: ${JSON.stringify(events.at(-1))}`)
  assert.equal(events.filter(isEnd).length, 1, "one end")
}

/** The data of every event, and the text they carry (for comparing two answers to the same prompt). */
const answerOf = (events: ReadonlyArray<IdEvent>) => ({
  text: textOf(events.filter((e) => !isEnd(e)).map((e) => e.data)),
  count: events.length,
  end: endReasonOf(events.at(-1)!),
})

export const resumableTests = ({ name, startApp }: AppUnderTest): void =>
  describe(`the ${name} app's resumable streams (in memory)`, () => {
    let app: RunningApp

    beforeAll(async () => {
      app = await startApp({ port: 0, mockFaults: "delay:10" })
    })
    afterAll(async () => {
      await app.close()
    })

    it("gives every event an id that names the stream and its place, and the answer the stream's Location", async () => {
      const { res, events } = await start(app.url, STORY)
      assert.equal(res.status, 200)
      const location = locationOf(res)
      const streamId = location.split("/").at(-1)!
      assert.match(location, /^\/v1\/stream\/[A-Za-z0-9_-]+$/)
      const all = await readAll(events)
      assertWhole(all, streamId)
      assert.equal(all.at(-1)!.data, "[DONE]")
    })

    it("starts a resumable stream from GET /v1/stream?prompt= too, as EventSource opens it", async () => {
      const abort = new AbortController()
      const res = await fetch(`${app.url}/v1/stream?prompt=Hello&max_tokens=3`, { signal: abort.signal })
      assert.equal(res.status, 200)
      const location = locationOf(res)
      const replay = await readAll((await resume(app.url, location)).events)
      assertWhole(replay, location.split("/").at(-1)!)
      await res.body?.cancel()
    })

    it("resumes a reader dropped after k events with Last-Event-ID: every later event exactly once, in order, the same answer as an uninterrupted one", async () => {
      const uninterrupted = await readAll((await start(app.url, STORY)).events)
      const first = await start(app.url, STORY)
      const location = locationOf(first.res)
      const before = await readSome(first.events, 3)
      await first.events.drop()
      const again = await resume(app.url, location, before.at(-1)!.id)
      assert.equal(again.res.status, 200)
      assert.equal(again.res.headers.get("content-type")?.split(";")[0], "text/event-stream")
      const after = await readAll(again.events)
      const whole = [...before, ...after]
      assertWhole(whole, location.split("/").at(-1)!)
      assert.deepEqual(answerOf(whole), answerOf(uninterrupted))
    })

    it("resumed after its end, gives the rest and the end, then 204 for the end's own id", async () => {
      const first = await start(app.url, STORY)
      const location = locationOf(first.res)
      const before = await readSome(first.events, 2)
      await first.events.drop()
      // a replay from the start reads on to the live end: the stream has ended once it returns
      const replay = await readAll((await resume(app.url, location)).events)
      const rest = await readAll((await resume(app.url, location, before.at(-1)!.id)).events)
      assert.deepEqual(rest, replay.slice(2))
      assert.equal(rest.at(-1)!.data, "[DONE]")
      const past = await fetch(new URL(location, app.url), { headers: { "last-event-id": replay.at(-1)!.id! } })
      assert.equal(past.status, 204, await past.text())
    })

    it("replays a stream from its first event on a GET without Last-Event-ID", async () => {
      const first = await start(app.url, STORY)
      const location = locationOf(first.res)
      const live = await readAll(first.events)
      const replay = await readAll((await resume(app.url, location)).events)
      assert.deepEqual(replay, live)
      assert.equal(seqOf(replay[0]!.id), 1)
    })

    it("cancels a stream on DELETE: its readers get a cancelled end, and the request to the model server is aborted", async () => {
      // the model server sends 3 tokens, then nothing until its client goes away: the stream cannot end by itself
      app.mock!.queueFaults("stall:3")
      const first = await start(app.url, { prompt: "a long story", max_tokens: 2000 })
      const location = locationOf(first.res)
      const before = await readSome(first.events, 2)
      const upstream = app.mock!.lastRequest()!
      const cancelled = await cancel(app.url, location)
      assert.ok(cancelled.status >= 200 && cancelled.status < 300, JSON.stringify(cancelled))
      const after = await readAll(first.events)
      assertWhole([...before, ...after], location.split("/").at(-1)!)
      assert.equal(endReasonOf(after.at(-1)!), "cancelled")
      // a producer whose upstream stalls sees the cancel at its next lease renewal (leaseMs / 3: 5 s by default)
      const record = await app.mock!.waitForDisconnect(upstream.id, { timeoutMs: 10_000 })
      assert.equal(record.outcome, "disconnected")
      // a resume of the cancelled stream: the rest, then the same cancelled end
      const resumed = await readAll((await resume(app.url, location, before.at(-1)!.id)).events)
      assert.deepEqual(resumed, after)
    }, 20_000)

    it("answers a second DELETE with a clear status and message, and the stream stays readable", async () => {
      app.mock!.queueFaults("stall:3")
      const first = await start(app.url, { prompt: "a long story", max_tokens: 2000 })
      const location = locationOf(first.res)
      await readSome(first.events, 1)
      const once = await cancel(app.url, location)
      const twice = await cancel(app.url, location)
      assert.ok(once.status >= 200 && once.status < 300, JSON.stringify(once))
      assert.ok(twice.status < 500, JSON.stringify(twice))
      assert.match(JSON.stringify(twice.body), /cancel|ended/i)
      const replay = await readAll((await resume(app.url, location)).events)
      assertWhole(replay, location.split("/").at(-1)!)
      assert.equal(endReasonOf(replay.at(-1)!), "cancelled")
      await first.events.drop()
    })

    it("answers an unknown stream with 404, and a malformed or another stream's Last-Event-ID with 400, as JSON", async () => {
      const unknown = await fetch(`${app.url}/v1/stream/AAAAAAAAAAAAAAAAAAAAAA`)
      assert.equal(unknown.status, 404)
      assert.equal(unknown.headers.get("content-type")?.split(";")[0], "application/json")
      assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /AAAAAAAAAAAAAAAAAAAAAA/)
      const unknownDelete = await cancel(app.url, "/v1/stream/AAAAAAAAAAAAAAAAAAAAAA")
      assert.equal(unknownDelete.status, 404)

      const a = await start(app.url, { prompt: "Hi", max_tokens: 2 })
      const b = await start(app.url, { prompt: "Hi", max_tokens: 2 })
      const [aEvents, bEvents] = [await readAll(a.events), await readAll(b.events)]
      const location = locationOf(a.res)
      for (const [lastEventId, pattern] of [
        ["not-an-id", /not-an-id/],
        [`${location.split("/").at(-1)}.0`, /Last-Event-ID/],
        [bEvents[0]!.id!, /another stream|not to stream|belongs to/i],
      ] as const) {
        const res = await fetch(new URL(location, app.url), { headers: { "last-event-id": lastEventId } })
        assert.equal(res.status, 400, lastEventId)
        assert.equal(res.headers.get("content-type")?.split(";")[0], "application/json")
        assert.match(((await res.json()) as { error: { message: string } }).error.message, pattern)
      }
      // nothing was lost: the stream is still there, whole
      assert.deepEqual(await readAll((await resume(app.url, location)).events), aEvents)
    })
  })
