// The Worker in workerd, as wrangler.jsonc configures it (one Durable Object per stream, SQLite storage): through
// workerd's HTTP pipeline (`exports.default`) with no token, so streaming from the mock in the isolate; and with a
// token, proxying to a mock in Node.

import { env as cloudflareEnv, exports } from "cloudflare:workers"
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { workerMock } from "@friendli-stream/testing/worker"
import app, { type Env } from "../../src/index.ts"
import { endOf, type IdEvent, readEvents, splitId, textOf } from "../events.ts"

const env = cloudflareEnv as unknown as {
  TOKEN_MOCK_URL: string
  FRIENDLI_MODEL: string
  FRIENDLI_TOKEN?: string
  MOCK_FAULTS: string
}
const worker = (exports as unknown as { default: { fetch: (request: Request) => Promise<Response> } }).default
// The mock the Durable Objects stream from, made here first with the Worker's pacing (25 ms a token).
const mock = workerMock({ MOCK_FAULTS: env.MOCK_FAULTS })

const start = (body: unknown): Promise<Response> =>
  worker.fetch(
    new Request("http://worker/v1/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  )

const get = (path: string, lastEventId?: string): Promise<Response> =>
  worker.fetch(
    new Request(`http://worker${path}`, lastEventId === undefined ? {} : { headers: { "last-event-id": lastEventId } }),
  )

const errorOf = async (res: Response): Promise<{ message: string; type: string }> =>
  ((await res.json()) as { error: { message: string; type: string } }).error

/** Every id is `<streamId>.<seq>` with seq 1, 2, 3… from `from`. */
const assertIds = (events: ReadonlyArray<IdEvent>, streamId: string, from = 1): void =>
  assert.deepEqual(
    events.map((e) => e.id),
    events.map((_, i) => `${streamId}.${from + i}`),
  )

describe("the Worker's resumable streams (a Durable Object per stream, the mock in the isolate)", () => {
  it("serves the page: a prompt, Send and Stop, the output, TTFT, tokens/s, reconnects, and an EventSource", async () => {
    assert.equal(env.FRIENDLI_TOKEN, undefined)
    const res = await worker.fetch(new Request("http://worker/"))
    assert.equal(res.status, 200)
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8")
    const html = await res.text()
    for (const id of [
      "prompt",
      "max-tokens",
      "send",
      "stop",
      "output",
      "state",
      "ttft",
      "tps",
      "tokens",
      "reconnects",
    ]) {
      assert.match(html, new RegExp(`id="${id}"`), `the page has #${id}`)
    }
    assert.match(html, /new EventSource\("\/v1\/stream\?"/)
  })

  it("starts a stream with POST: every event has an id <stream>.<seq>, Location names it, it ends with [DONE]", async () => {
    const res = await start({ prompt: "Once upon a time", max_tokens: 8 })
    assert.equal(res.status, 200)
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8")
    const location = res.headers.get("location") ?? ""
    const streamId = location.replace("/v1/stream/", "")
    assert.match(location, /^\/v1\/stream\/[A-Za-z0-9_-]{22}$/)
    const events = await readEvents(res)
    assertIds(events, streamId)
    assert.equal(endOf(events.at(-1)), "done")
    const chunks = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.data) as { model: string; choices: Array<{ text: string }> })
    assert.equal(chunks.filter((c) => (c.choices[0]?.text ?? "") !== "").length, 8)
    assert.ok(chunks.every((c) => c.model === env.FRIENDLI_MODEL))
  })

  it("starts a stream with GET ?prompt= (as an EventSource opens it), sending the mock the request it builds", async () => {
    const res = await get("/v1/stream?prompt=What+the+mock+sees&max_tokens=3")
    assert.equal(res.status, 200)
    const events = await readEvents(res)
    assert.equal(endOf(events.at(-1)), "done")
    const seen = [...mock.requests]
      .reverse()
      .find((r) => (r.body as { prompt?: string }).prompt === "What the mock sees")
    assert.ok(seen, "the mock saw the request")
    assert.equal(seen.path, "/serverless/v1/completions")
    assert.equal(seen.headers.authorization, "Bearer demo-token")
    assert.deepEqual(seen.body, {
      model: env.FRIENDLI_MODEL,
      prompt: "What the mock sees",
      max_tokens: 3,
      stream_options: { include_usage: true },
      stream: true,
    })
  })

  it("resumes a dropped reader with Last-Event-ID: every event exactly once, in order, equal to an uninterrupted read", async () => {
    const body = { prompt: "Explain server-sent events to a child", max_tokens: 64 }
    const first = await start(body)
    const streamId = first.headers.get("location")!.slice("/v1/stream/".length)
    const head = await readEvents(first, 5)
    assert.equal(head.length, 5)
    // The generation goes on without a reader; the rest comes from the object, live or stored.
    const tail = await readEvents(await get(`/v1/stream/${streamId}`, head.at(-1)!.id))
    const resumed = [...head, ...tail]
    assertIds(resumed, streamId)
    assert.equal(endOf(resumed.at(-1)), "done")
    // The same stream replayed whole (GET without Last-Event-ID), and an uninterrupted stream of the same prompt.
    const replay = await readEvents(await get(`/v1/stream/${streamId}`))
    assert.deepEqual(replay, resumed)
    const uninterrupted = await readEvents(await start(body))
    // The same choices, chunk by chunk (the mock's ids and timestamps differ between two requests).
    const choices = (events: ReadonlyArray<IdEvent>) =>
      events.map((e) => (e.data === "[DONE]" ? e.data : (JSON.parse(e.data) as { choices: unknown }).choices))
    assert.deepEqual(choices(resumed), choices(uninterrupted))
    assert.equal(textOf(resumed), textOf(uninterrupted))
  })

  it("resumes from ?lastEventId= and from GET /v1/stream with Last-Event-ID (an EventSource reconnecting)", async () => {
    const res = await get("/v1/stream?prompt=Count+to+ten&max_tokens=12")
    const head = await readEvents(res, 3)
    const { streamId } = splitId(head[2]!.id)
    const byQuery = await readEvents(await get(`/v1/stream/${streamId}?lastEventId=${head[2]!.id}`))
    const byEventSource = await readEvents(await get("/v1/stream?prompt=Count+to+ten&max_tokens=12", head[2]!.id))
    assert.deepEqual(byQuery, byEventSource)
    assertIds(byQuery, streamId, 4)
    assert.equal(endOf(byQuery.at(-1)), "done")
  })

  it("resumes after the end: the rest and the end; from the end's own id a 204", async () => {
    const res = await start({ prompt: "A short one", max_tokens: 6 })
    const all = await readEvents(res)
    const { streamId } = splitId(all[0]!.id)
    const rest = await readEvents(await get(`/v1/stream/${streamId}`, all[2]!.id))
    assert.deepEqual(rest, all.slice(3))
    const after = await get(`/v1/stream/${streamId}`, all.at(-1)!.id)
    assert.equal(after.status, 204)
    assert.equal(await after.text(), "")
  })

  it("cancels with DELETE: readers get a cancelled end, the upstream request is aborted, a second DELETE is a 409", async () => {
    mock.queueFaults("stall:4")
    const res = await start({ prompt: "A long story about cancelling", max_tokens: 200 })
    const head = await readEvents(res, 4)
    const { streamId } = splitId(head[0]!.id)
    const upstream = [...mock.requests]
      .reverse()
      .find((r) => (r.body as { prompt?: string }).prompt === "A long story about cancelling")
    assert.ok(upstream, "the mock saw the request")
    // The handler answers a resume with its first event: this reader waits (the mock stalls) until the cancel.
    const reader = get(`/v1/stream/${streamId}`, head.at(-1)!.id).then((res) => readEvents(res))

    const cancelled = await worker.fetch(new Request(`http://worker/v1/stream/${streamId}`, { method: "DELETE" }))
    assert.equal(cancelled.status, 200)
    assert.deepEqual(await cancelled.json(), { id: streamId, status: "cancelled" })
    const rest = await reader
    assert.equal(rest.length, 1, JSON.stringify(rest))
    assert.equal(endOf(rest[0]), "cancelled")
    assert.equal(rest[0]!.id, `${streamId}.5`)
    await mock.waitForDisconnect(upstream.id, { timeoutMs: 10_000 })

    const again = await worker.fetch(new Request(`http://worker/v1/stream/${streamId}`, { method: "DELETE" }))
    assert.equal(again.status, 409)
    assert.match((await errorOf(again)).message, /already ended/)
    // A resume of the cancelled stream: the stored events, then the cancelled end.
    const replay = await readEvents(await get(`/v1/stream/${streamId}`))
    assert.deepEqual(replay, [...head, ...rest])
  })

  it("answers an unknown, malformed, foreign or future Last-Event-ID and an unknown stream with a 404 or 400 and a message", async () => {
    const all = await readEvents(await start({ prompt: "Ids", max_tokens: 3 }))
    const { streamId } = splitId(all[0]!.id)
    const other = splitId((await readEvents(await start({ prompt: "Other", max_tokens: 2 })))[0]!.id).streamId
    const unknown = "AAAAAAAAAAAAAAAAAAAAAA"

    const cases: Array<[string, string | undefined, number, RegExp]> = [
      [`/v1/stream/${unknown}`, undefined, 404, /No stream/],
      [`/v1/stream/${unknown}`, `${unknown}.1`, 404, /No stream/],
      ["/v1/stream?prompt=x", `${unknown}.1`, 404, /No stream/],
      ["/v1/stream/not-an-id", undefined, 404, /No stream/],
      [`/v1/stream/${streamId}`, "garbage", 400, /not an event id/],
      [`/v1/stream/${streamId}`, `${streamId}.0`, 400, /not an event id/],
      ["/v1/stream?prompt=x", "garbage", 400, /not an event id/],
      [`/v1/stream/${streamId}`, `${other}.1`, 400, /belongs to stream/],
      [`/v1/stream/${streamId}`, `${streamId}.99`, 400, /past the last event/],
    ]
    for (const [path, lastEventId, status, message] of cases) {
      const res = await get(path, lastEventId)
      assert.equal(res.status, status, `${path} ${lastEventId}`)
      assert.equal(res.headers.get("content-type"), "application/json")
      assert.match((await errorOf(res)).message, message, `${path} ${lastEventId}`)
    }
  })

  it("answers a bad start with a 400 JSON error, an unknown path with 404 and a wrong method with 405", async () => {
    for (const body of [
      { prompt: "" },
      "not json",
      { prompt: "Hi", max_tokens: 0 },
      { prompt: "Hi", max_tokens: 5000 },
    ]) {
      const res = await start(body)
      assert.equal(res.status, 400, JSON.stringify(body))
      assert.equal((await errorOf(res)).type, "invalid_request_error")
    }
    const missing = await worker.fetch(new Request("http://worker/api/stream", { method: "POST", body: "{}" }))
    assert.equal(missing.status, 404)
    assert.match((await errorOf(missing)).message, /POST \/v1\/stream/)
    const wrong = await worker.fetch(new Request("http://worker/v1/stream", { method: "PUT", body: "{}" }))
    assert.equal(wrong.status, 405)
    assert.equal(wrong.headers.get("allow"), "POST, GET")
    await wrong.body?.cancel()
    const wrongOne = await worker.fetch(
      new Request("http://worker/v1/stream/AAAAAAAAAAAAAAAAAAAAAA", { method: "PUT" }),
    )
    assert.equal(wrongOne.status, 405)
    assert.equal(wrongOne.headers.get("allow"), "GET, DELETE")
    await wrongOne.body?.cancel()
  })
})

describe("the Worker under abuse (its bounds and CORS, as the sample services have them)", () => {
  const ORIGIN = "https://app.example"
  const configured = (request: Request) =>
    app.fetch(request, { ...(cloudflareEnv as unknown as Env), CORS_ORIGINS: ORIGIN, MAX_BODY_BYTES: "1024" })

  it("answers its event streams with the proxy-safe headers", async () => {
    const res = await start({ prompt: "Hi", max_tokens: 2 })
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8")
    assert.equal(res.headers.get("cache-control"), "no-cache, no-transform")
    assert.equal(res.headers.get("x-accel-buffering"), "no")
    assert.equal(endOf((await readEvents(res)).at(-1)), "done")
  })

  it("answers a body over MAX_BODY_BYTES with a 413 JSON error", async () => {
    const res = await configured(
      new Request("http://worker/v1/stream", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt: "x".repeat(2000) }),
      }),
    )
    assert.equal(res.status, 413)
    assert.match((await errorOf(res)).message, /MAX_BODY_BYTES/)
  })

  it("answers a CORS preflight from CORS_ORIGINS with 204, and exposes Location to it", async () => {
    const preflight = await configured(
      new Request("http://worker/v1/stream", {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "POST" },
      }),
    )
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers.get("access-control-allow-origin"), ORIGIN)
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /last-event-id/)
    const res = await configured(
      new Request("http://worker/v1/stream", {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ prompt: "Hi", max_tokens: 1 }),
      }),
    )
    assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN)
    assert.match(res.headers.get("access-control-expose-headers") ?? "", /Location/)
    assert.equal(endOf((await readEvents(res)).at(-1)), "done")
  })
})
