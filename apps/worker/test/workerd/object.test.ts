// The stream's Durable Object itself (StreamObject, from wrangler.jsonc's STREAMS binding), driven through its own
// routes and inside its context (`runInDurableObject`): generation without a reader, a restart mid-generation
// (producer_lost), the maximum duration, the retention time (then 404), and the client with a token.

import { runInDurableObject } from "cloudflare:test"
import { env as cloudflareEnv, exports } from "cloudflare:workers"
import assert from "node:assert/strict"
import { EventId } from "@friendli-stream/resumable"
import { describe, it } from "@friendli-stream/test-harness"
import { workerMock } from "@friendli-stream/testing/worker"
import { type Env, StreamObject } from "../../src/index.ts"
import { endOf, readEvents, splitId } from "../events.ts"

const env = cloudflareEnv as unknown as Env & { TOKEN_MOCK_URL: string; MOCK_FAULTS: string }
const mock = workerMock({ MOCK_FAULTS: env.MOCK_FAULTS })
const worker = (exports as unknown as { default: { fetch: (request: Request) => Promise<Response> } }).default

/**
 * The object of a stream, as a new stub each time: a stub is bound to the context that made it, and the code after
 * an await on the mock (whose promises the objects resolve) runs in the object's context.
 */
const objectOf = (streamId: string) => env.STREAMS.get(env.STREAMS.idFromName(streamId))

/** A new stream id and its object. */
const newStream = () => {
  const streamId = EventId.makeStreamId()
  return { streamId, stub: objectOf(streamId) }
}

/** The object's start, as the Worker's POST /v1/stream sends it: the id it chose, and what to start. */
const put = (streamId: string, body: unknown) =>
  new Request("http://object/v1/stream", {
    method: "POST",
    headers: { "content-type": "application/json", "x-friendli-stream-id": streamId },
    body: JSON.stringify(body),
  })

const completion = (prompt: string, extra: Record<string, unknown> = {}) => ({
  api: "completions",
  request: { model: "m", prompt, max_tokens: 64, ...extra },
})

const upstreamOf = (prompt: string) =>
  mock.waitForRequest((r) => (r.body as { prompt?: string } | undefined)?.prompt === prompt, { timeoutMs: 10_000 })

describe("the stream's Durable Object", () => {
  it("goes on generating after its only reader went away, and keeps every event for the next reader", async () => {
    const { streamId, stub } = newStream()
    const prompt = "A reader that leaves"
    const head = await readEvents(await stub.fetch(put(streamId, completion(prompt))), 2)
    const upstream = await upstreamOf(prompt)
    const settled = await mock.waitForSettled(upstream.id, { timeoutMs: 20_000 })
    // The mock sent the whole completion, to its [DONE], with no reader left.
    assert.ok(
      settled.events.some((e) => e.type === "chunk" && (e as { data?: unknown }).data === "[DONE]"),
      settled.outcome,
    )
    const all = await readEvents(await objectOf(streamId).fetch(`http://object/v1/stream/${streamId}`))
    assert.deepEqual(all.slice(0, 2), head)
    assert.equal(endOf(all.at(-1)), "done")
  })

  it("ends an unfinished stream with producer_lost when the object restarts mid-generation, and fences the old producer", async () => {
    const { streamId, stub } = newStream()
    // 200 tokens at 25 ms: still generating when the object restarts.
    const prompt = "A producer that dies"
    const head = await readEvents(
      await stub.fetch(put(streamId, completion(prompt, { max_tokens: 200, ignore_eos: true }))),
      3,
    )
    const upstream = await upstreamOf(prompt)
    // A new instance on the same storage, as after an eviction, a crash or a deploy: its constructor finds a
    // stream with no end and no producer.
    const rest = await runInDurableObject(objectOf(streamId), async (_instance, state) => {
      const restarted = new StreamObject(state, env)
      return readEvents(await restarted.fetch(new Request(`http://object/v1/stream/${streamId}`)))
    })
    assert.deepEqual(rest.slice(0, 3), head)
    assert.deepEqual(
      rest.map((e) => e.id),
      rest.map((_, i) => `${streamId}.${i + 1}`),
    )
    assert.equal(endOf(rest.at(-1)), "producer_lost")
    assert.ok(rest.length < 200, `${rest.length} events before the end`)
    // The old producer is fenced: its next write is refused, it stops and aborts its upstream request; the stream
    // stays as it was.
    await mock.waitForDisconnect(upstream.id, { timeoutMs: 10_000 })
    const replay = await readEvents(await objectOf(streamId).fetch(`http://object/v1/stream/${streamId}`))
    assert.deepEqual(replay, rest)
    const cancel = await objectOf(streamId).fetch(
      new Request(`http://object/v1/stream/${streamId}`, { method: "DELETE" }),
    )
    assert.equal(cancel.status, 409)
    await cancel.body?.cancel()
  })

  it("stops a stream at its maximum duration with a timeout end, aborting the upstream request", async () => {
    const { streamId, stub } = newStream()
    mock.queueFaults("stall:2")
    const prompt = "A stream that takes too long"
    const res = await stub.fetch(put(streamId, { ...completion(prompt), options: { maxDurationMs: 300 } }))
    const events = await readEvents(res)
    assert.equal(events.length, 3, JSON.stringify(events))
    assert.equal(endOf(events[2]), "timeout")
    await mock.waitForDisconnect((await upstreamOf(prompt)).id, { timeoutMs: 10_000 })
  })

  it("deletes the stream after its retention time (an alarm): then 404, through the Worker too", async () => {
    const { streamId, stub } = newStream()
    const res = await stub.fetch(
      put(streamId, { ...completion("Soon forgotten", { max_tokens: 2 }), options: { retentionMs: 200 } }),
    )
    const events = await readEvents(res)
    assert.equal(endOf(events.at(-1)), "done")
    // The alarm fires by itself; wait for its effect (bounded, not timed).
    let status = 200
    for (let i = 0; i < 400 && status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      const again = await stub.fetch(`http://object/v1/stream/${streamId}`)
      status = again.status
      await again.body?.cancel()
    }
    assert.equal(status, 404)
    const tables = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
    )
    assert.deepEqual(
      tables.filter((t) => t.name.startsWith("resumable_")),
      [],
      "the stream's rows and tables are gone",
    )
    const resumed = await stub.fetch(
      new Request(`http://object/v1/stream/${streamId}`, { headers: { "last-event-id": events[0]!.id! } }),
    )
    assert.equal(resumed.status, 404)
    assert.match(((await resumed.json()) as { error: { message: string } }).error.message, /retention time/)
    const throughWorker = await worker.fetch(new Request(`http://worker/v1/stream/${streamId}`))
    assert.equal(throughWorker.status, 404)
    await throughWorker.body?.cancel()
  })

  it("refuses a second start of the same stream id (ids are never re-used)", async () => {
    const { streamId, stub } = newStream()
    await readEvents(await stub.fetch(put(streamId, completion("Once", { max_tokens: 2 }))))
    const again = await stub.fetch(put(streamId, completion("Twice", { max_tokens: 2 })))
    assert.equal(again.status, 500)
    assert.match(((await again.json()) as { error: { message: string } }).error.message, /never re-used/)
  })

  it("answers bad stream times with a 500 naming the option", async () => {
    const { streamId, stub } = newStream()
    const res = await stub.fetch(put(streamId, { ...completion("x"), options: { leaseMs: -1 } }))
    assert.equal(res.status, 500)
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /options\.leaseMs/)
  })
})

describe("the stream's Durable Object with a token (a mock in Node)", () => {
  /** The stream's object, as a new instance whose bindings hold `token` (on the same storage). */
  const startWith = (token: string, prompt: string) => {
    const { streamId, stub } = newStream()
    return runInDurableObject(stub, async (_instance, state) => {
      const withToken = new StreamObject(state, {
        ...env,
        FRIENDLI_TOKEN: token,
        FRIENDLI_BASE_URL: `${env.TOKEN_MOCK_URL}/serverless`,
        FRIENDLI_MODEL: "my-model",
      })
      const res = await withToken.fetch(put(streamId, completion(prompt, { max_tokens: 2 })))
      return {
        status: res.status,
        location: res.headers.get("location"),
        events: res.status === 200 ? await readEvents(res) : [],
        body: res.status === 200 ? undefined : await res.json(),
      }
    })
  }

  it("streams from FRIENDLI_BASE_URL with FRIENDLI_TOKEN and FRIENDLI_MODEL", async () => {
    const { status, events } = await startWith("flp_right", "Hello upstream")
    assert.equal(status, 200)
    assert.equal(endOf(events.at(-1)), "done")
    const records = (await (await fetch(`${env.TOKEN_MOCK_URL}/_mock/requests`)).json()) as Array<{
      headers: Record<string, string>
      body: { model: string; prompt: string }
    }>
    const seen = records.reverse().find((r) => r.body?.prompt === "Hello upstream")
    assert.equal(seen?.headers.authorization, "Bearer flp_right")
    assert.equal(seen?.body.model, "my-model")
  })

  it("ends a stream whose upstream refused the token with the upstream's 401 as its error end, kept for a replay", async () => {
    const { status, location, events } = await startWith("flp_wrong", "Hi")
    assert.equal(status, 200)
    assert.equal(events.length, 1, JSON.stringify(events))
    assert.equal(endOf(events[0]), "error:AuthenticationError")
    const { error } = JSON.parse(events[0]!.data) as { error: { message: string; code: unknown } }
    assert.equal(error.code, 401)
    assert.ok(error.message.length > 0)
    assert.match(location ?? "", /^\/v1\/stream\/[A-Za-z0-9_-]{22}$/)
    const replay = await readEvents(
      await env.STREAMS.get(env.STREAMS.idFromName(splitId(events[0]!.id).streamId)).fetch(`http://object${location}`),
    )
    assert.deepEqual(replay, events)
  })
})
