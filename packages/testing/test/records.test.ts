import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { requestIdOf } from "../src/index.ts"
import { BASE, completionsBody, newMock, post, readStream, request, sleep } from "./helpers.ts"

const PATH = "/serverless/v1/completions"

describe("records", () => {
  it("records method, path, url, headers, parsed body, deployment, api and time of each request", async () => {
    let now = 1_000
    const mock = newMock({ clock: () => now })
    const body = completionsBody({ max_tokens: 2 })
    const res = await post(mock, PATH, body, { headers: { "x-friendli-team": "t1" }, query: "?x=1" })
    now = 2_000
    await readStream(res)
    const record = mock.request(requestIdOf(res))!
    assert.equal(record.method, "POST")
    assert.equal(record.path, PATH)
    assert.equal(record.url, `${BASE}${PATH}?x=1`)
    assert.equal(record.headers.authorization, "Bearer test-token")
    assert.equal(record.headers["x-friendli-team"], "t1")
    assert.deepEqual(record.body, body)
    assert.equal(record.deployment, "serverless")
    assert.equal(record.api, "completions")
    assert.equal(record.receivedAt, 1_000)
    assert.equal(record.status, 200)
    assert.equal(record.outcome, "completed")
    assert.equal(record.completedAt, 2_000)
    assert.equal(record.disconnectedAt, undefined)
  })

  it("keeps a timeline: response, each chunk (two tokens, finish, [DONE]), each write, complete", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, completionsBody({ max_tokens: 2, ignore_eos: true }), {
      headers: { "x-mock-fault": "coalesce:2" },
    })
    await readStream(res)
    const events = mock.request(requestIdOf(res))!.events
    assert.deepEqual(
      events.map((e) => e.type),
      ["response", "chunk", "chunk", "write", "chunk", "chunk", "write", "complete"],
    )
    const chunks = events.flatMap((e) => (e.type === "chunk" ? [e] : []))
    assert.deepEqual(
      chunks.map((c) => c.index),
      [0, 1, 2, 3],
    )
    assert.equal(chunks[3]!.data, "[DONE]")
    assert.equal(JSON.parse(chunks[0]!.data).object, "text_completion")
    const writes = events.flatMap((e) => (e.type === "write" ? [e.bytes] : []))
    assert.ok(writes.every((n) => n > 0))
    for (let i = 1; i < events.length; i++) assert.ok(events[i]!.at >= events[i - 1]!.at)
  })

  it("records the event name of named events", async () => {
    const mock = newMock()
    const res = await post(mock, "/serverless/tools/v1/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "math:calculator" }],
      stream: true,
    })
    await readStream(res)
    const first = mock.request(requestIdOf(res))!.events.find((e) => e.type === "chunk")
    assert.equal(first?.type === "chunk" ? first.event : undefined, "tool_status")
  })

  it("records requests that were refused, with their status", async () => {
    const mock = newMock()
    await post(mock, PATH, completionsBody(), { token: null })
    await post(mock, "/nowhere", {})
    // top_p is from 0 (exclusive) to 1 (inclusive) in the description
    await post(mock, PATH, completionsBody({ top_p: 0 }))
    assert.deepEqual(
      mock.requests.map((r) => [r.path, r.status, r.outcome]),
      [
        [PATH, 401, "completed"],
        ["/nowhere", 404, "completed"],
        [PATH, 422, "completed"],
      ],
    )
    assert.equal(mock.requests[1]!.deployment, undefined)
  })

  it("records the raw text of a body that is not JSON", async () => {
    const mock = newMock()
    await post(mock, PATH, "{oops")
    assert.equal(mock.lastRequest()?.body, "{oops")
  })

  it("records when the client cancels the body, and waitForDisconnect resolves then", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, completionsBody(), { headers: { "x-mock-fault": "delay:50" } })
    const id = requestIdOf(res)
    const reader = res.body!.getReader()
    await reader.read()
    const waiting = mock.waitForDisconnect(id)
    const cancelledAt = Date.now()
    await reader.cancel()
    const record = await waiting
    assert.equal(record.outcome, "disconnected")
    // `waiting` resolving is the event (no delay threshold); its time is at or after the cancel.
    const delay = record.disconnectedAt! - cancelledAt
    assert.ok(delay >= 0, `the disconnect was recorded ${-delay} ms before the cancel`)
    assert.equal(record.events.at(-1)?.type, "disconnect")
  })

  it("records when the request signal aborts", async () => {
    const mock = newMock()
    const abort = new AbortController()
    const res = await mock.fetch(
      request(PATH, completionsBody(), { signal: abort.signal, headers: { "x-mock-fault": "stall" } }),
    )
    abort.abort()
    const record = await mock.waitForDisconnect(requestIdOf(res), { timeoutMs: 1000 })
    assert.equal(record.outcome, "disconnected")
    await res.body?.cancel()
  })

  it("rejects waitForDisconnect after its timeout with a message naming the request", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, completionsBody())
    await readStream(res)
    await assert.rejects(
      mock.waitForDisconnect(requestIdOf(res), { timeoutMs: 30 }),
      /Timed out after 30 ms waiting for the client of req_1/,
    )
  })

  it("waitForRequest resolves with a request that arrives later", async () => {
    const mock = newMock()
    const waiting = mock.waitForRequest((r) => r.path === PATH)
    await sleep(10)
    const res = await post(mock, PATH, completionsBody())
    assert.equal((await waiting).id, requestIdOf(res))
    await res.body?.cancel()
  })

  it("waitForSettled resolves when a stream completes", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, completionsBody(), { headers: { "x-mock-fault": "delay:5" } })
    const settled = mock.waitForSettled(requestIdOf(res))
    await readStream(res)
    assert.equal((await settled).outcome, "completed")
  })

  it("close ends stalled responses and marks them closed", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, completionsBody(), { headers: { "x-mock-fault": "stall:1" } })
    const reading = readStream(res)
    await sleep(20)
    mock.close()
    const { events } = await reading
    assert.equal(events.length, 1)
    assert.equal(mock.request(requestIdOf(res))?.outcome, "closed")
  })

  it("clearRecords forgets every request, and ids keep counting", async () => {
    const mock = newMock()
    await (await post(mock, PATH, completionsBody())).body?.cancel()
    mock.clearRecords()
    assert.equal(mock.requests.length, 0)
    const res = await post(mock, PATH, completionsBody())
    assert.equal(requestIdOf(res), "req_2")
    await res.body?.cancel()
  })

  it("keeps only the last maxRecords requests, forgetting settled ones before one still in flight", async () => {
    const mock = newMock({ maxRecords: 3 })
    const stalled = await post(mock, PATH, completionsBody(), { headers: { "x-mock-fault": "stall:1" } })
    for (let i = 0; i < 4; i++) await readStream(await post(mock, PATH, completionsBody({ max_tokens: 1 })))
    // req_1 is still in flight, so the settled req_2 and req_3 went first.
    assert.deepEqual(
      mock.requests.map((r) => r.id),
      ["req_1", "req_4", "req_5"],
    )
    assert.equal(mock.request("req_2"), undefined)
    assert.equal(mock.request(requestIdOf(stalled))?.outcome, "pending")
    await stalled.body?.cancel()
  })

  it("remembers 1,000 requests by default", async () => {
    const mock = newMock()
    for (let i = 0; i < 1_001; i++) {
      await (
        await mock.fetch(new Request(`${BASE}/serverless/v1/models`, { headers: { authorization: "Bearer t" } }))
      ).text()
    }
    assert.equal(mock.requests.length, 1_000)
    assert.equal(mock.requests[0]?.id, "req_2")
  })

  it("refuses a maxRecords that is not a whole number of at least 1", () => {
    assert.throws(() => newMock({ maxRecords: 0 }), /maxRecords must be a whole number of at least 1, not 0/)
  })

  it("requestIdOf refuses a response that did not come from the mock", () => {
    assert.throws(() => requestIdOf(new Response("x")), /x-mock-request-id/)
  })
})

describe("control routes", () => {
  const get = (mock: ReturnType<typeof newMock>, path: string, method = "GET", body?: string) =>
    mock.fetch(new Request(`${BASE}${path}`, { method, ...(body === undefined ? {} : { body }) }))

  it("answers health, lists, shows and clears records over HTTP without being recorded", async () => {
    const mock = newMock()
    assert.deepEqual(await (await get(mock, "/_mock/health")).json(), { ok: true })
    const res = await post(mock, PATH, completionsBody({ max_tokens: 1 }))
    await readStream(res)
    const list = (await (await get(mock, "/_mock/requests")).json()) as Array<{ id: string }>
    assert.deepEqual(
      list.map((r) => r.id),
      ["req_1"],
    )
    const one = (await (await get(mock, "/_mock/requests/req_1")).json()) as { outcome: string }
    assert.equal(one.outcome, "completed")
    assert.equal((await get(mock, "/_mock/requests/req_9")).status, 404)
    await get(mock, "/_mock/requests", "DELETE")
    assert.deepEqual(await (await get(mock, "/_mock/requests")).json(), [])
  })

  it("waits for a disconnect or the end of a response over HTTP, and answers 408 on timeout", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, completionsBody(), { headers: { "x-mock-fault": "stall:1" } })
    const id = requestIdOf(res)
    assert.equal((await get(mock, `/_mock/requests/${id}/disconnect?timeout=20`)).status, 408)
    const waiting = get(mock, `/_mock/requests/${id}/disconnect?timeout=2000`)
    await res.body!.cancel()
    const record = (await (await waiting).json()) as { outcome: string }
    assert.equal(record.outcome, "disconnected")
    const settled = (await (await get(mock, `/_mock/requests/${id}/settled`)).json()) as { outcome: string }
    assert.equal(settled.outcome, "disconnected")
  })

  it("queues faults over HTTP and refuses bad specs", async () => {
    const mock = newMock()
    assert.deepEqual(await (await get(mock, "/_mock/faults", "POST", "status:502")).json(), { ok: true, queued: 1 })
    assert.equal((await get(mock, "/_mock/faults", "POST", "boom")).status, 400)
    assert.equal((await post(mock, PATH, completionsBody())).status, 502)
  })
})
