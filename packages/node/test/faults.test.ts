import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  StreamTruncated,
  TimeoutError,
  UnprocessableEntityError,
} from "../src/index.ts"
import {
  apiRequests,
  chatRequest,
  chunksSent,
  collect,
  completionRequest,
  eventually,
  type Harness,
  startMock,
} from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

const withFault = (fault: string, options: Parameters<Harness["client"]>[0] = {}) =>
  h.client({ headers: { "x-mock-fault": fault }, ...options })

describe("faults end in their typed error, after every chunk before them", () => {
  it("a body cut after 3 events ends in StreamTruncated after 3 chunks", async () => {
    const { items, error } = await collect(withFault("truncate:3").completions.stream(completionRequest()))
    assert.equal(items.length, 3)
    assert.ok(error instanceof StreamTruncated)
  })

  it("an in-stream error after 2 events ends in ApiError after 2 chunks, without a retry", async () => {
    const before = apiRequests(h.mock).length
    const { items, error } = await collect(withFault("error:2").chat.stream(chatRequest()))
    assert.equal(items.length, 2)
    assert.ok(error instanceof ApiError)
    assert.equal(error.retryable, true)
    assert.equal(apiRequests(h.mock).length - before, 1)
  })

  // A TCP reset makes the kernel drop bytes the client has not read yet, so the event written right before the
  // reset may be lost on the wire; the one written 50 ms earlier has been read by then.
  it("a connection reset after 2 events ends in ConnectionError (Receive) after the chunks read, without a retry", async () => {
    const before = apiRequests(h.mock).length
    const { items, error } = await collect(withFault("delay:50,reset:2").completions.stream(completionRequest()))
    assert.ok(items.length >= 1 && items.length <= 2, `${items.length} chunks`)
    assert.ok(error instanceof ConnectionError, String(error))
    assert.equal(error.reason, "Receive")
    assert.equal(apiRequests(h.mock).length - before, 1)
  })

  it("a server that stops sending ends in TimeoutError (Idle) after the chunks it sent, and is disconnected", async () => {
    const client = withFault("stall:2", { idleTimeoutMs: 200 })
    const started = Date.now()
    const { items, error } = await collect(client.completions.stream(completionRequest()))
    assert.equal(items.length, 2)
    assert.ok(error instanceof TimeoutError)
    assert.equal(error.reason, "Idle")
    assert.ok(Date.now() - started >= 200)
    const record = await h.mock.waitForDisconnect(h.mock.lastRequest()!.id, { timeoutMs: 1000 })
    assert.equal(record.outcome, "disconnected")
  })

  it("the idle timeout fires although the server keeps sending keep-alive comments", async () => {
    const client = withFault("stall:1,keepalive:40", { idleTimeoutMs: 300 })
    const { items, error } = await collect(client.completions.stream(completionRequest()))
    assert.equal(items.length, 1)
    assert.ok(error instanceof TimeoutError)
    assert.equal(error.reason, "Idle")
    const record = await h.mock.waitForDisconnect(h.mock.lastRequest()!.id, { timeoutMs: 1000 })
    assert.ok(record.events.filter((e) => e.type === "comment").length >= 4, "keep-alives were sent meanwhile")
  })

  it("a server that answers nothing ends in TimeoutError (FirstByte), not retried", async () => {
    const before = apiRequests(h.mock).length
    const client = withFault("delay-first:1000", { firstByteTimeoutMs: 150 })
    const started = Date.now()
    const { items, error } = await collect(client.chat.stream(chatRequest()))
    assert.equal(items.length, 0)
    assert.ok(error instanceof TimeoutError)
    assert.equal(error.reason, "FirstByte")
    assert.ok(Date.now() - started < 900)
    assert.equal(apiRequests(h.mock).length - before, 1)
    const record = await h.mock.waitForDisconnect(h.mock.lastRequest()!.id, { timeoutMs: 500 })
    assert.equal(record.status, undefined, "the request was aborted before any answer")
  })

  it("a server that is not there ends in ConnectionError (Send) after the retries", async () => {
    const client = h.client({ baseURL: "http://127.0.0.1:9/serverless", maxRetries: 1 })
    const { error } = await collect(client.completions.stream(completionRequest()))
    assert.ok(error instanceof ConnectionError, String(error))
    assert.equal(error.reason, "Send")
    assert.match(error.message, /ECONNREFUSED/)
  })
})

describe("error statuses carry their parsed Friendli body", () => {
  it("401 is AuthenticationError with the {message} body", async () => {
    const { error } = await collect(h.client({ token: "wrong" }).completions.stream(completionRequest()))
    assert.ok(error instanceof AuthenticationError)
    assert.equal(error.status, 401)
    assert.ok(error.body !== undefined && "message" in error.body)
    assert.match(error.body.message, /not valid/)
  })

  it("404 is NotFoundError with the {message} body", async () => {
    const { error } = await collect(h.client().chat.stream(chatRequest("x", { model: "no-such-model" })))
    assert.ok(error instanceof NotFoundError)
    assert.ok(error.body !== undefined && "message" in error.body)
    assert.match(error.body.message, /no-such-model/)
  })

  it("422 is UnprocessableEntityError with the {detail: [...]} body", async () => {
    const request = { prompt: "no model" }
    const { error } = await collect(h.client().completions.stream(request))
    assert.ok(error instanceof UnprocessableEntityError)
    assert.ok(error.body !== undefined && "detail" in error.body && Array.isArray(error.body.detail))
    assert.deepEqual(error.body.detail[0]?.loc, ["body", "model"])
    assert.match(error.message, /body\.model: Field required/)
  })

  it("429 is RateLimitError with the {error} body and Retry-After", async () => {
    const { error } = await collect(
      withFault("rate-limit:7", { maxRetries: 0 }).completions.stream(completionRequest()),
    )
    assert.ok(error instanceof RateLimitError)
    assert.equal(error.retryAfterMs, 7000)
    assert.ok(error.body !== undefined && "error" in error.body)
    assert.equal(error.body.error.code, "rate_limit_exceeded")
  })

  it("5xx is ServerError with the {error} body, from create() too", async () => {
    const error = await withFault("status:503", { maxRetries: 0 })
      .chat.create(chatRequest())
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    assert.ok(error instanceof ServerError)
    assert.equal(error.status, 503)
    assert.ok(error.body !== undefined && "error" in error.body)
    assert.equal(error.body.error.type, "server_error")
  })
})

describe("connections", () => {
  it("leaves no connection open after errors, non-2xx answers and early exits, once the client is closed", async () => {
    const client = h.client({ maxRetries: 0, idleTimeoutMs: 200 })
    await collect(client.completions.stream(completionRequest("x", { model: "no-such-model" })))
    await collect(client.completions.stream({ prompt: "no model" }))
    const stalled = h.client({ headers: { "x-mock-fault": "stall:1" }, idleTimeoutMs: 100 })
    await collect(stalled.completions.stream(completionRequest()))
    for await (const _ of client.completions.stream(completionRequest())) break
    await eventually("at most one idle pooled connection is left", () => h.openSockets() <= 1)
    await client.close()
    await stalled.close()
    await eventually("no connection is left", () => h.openSockets() === 0)
    for (const r of apiRequests(h.mock)) assert.notEqual(r.outcome, "pending", `${r.id} is still pending`)
    assert.ok(chunksSent(h.mock.lastRequest()!) >= 1)
  })
})
