import assert from "node:assert/strict"
import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnprocessableEntityError,
} from "@friendli-stream/client"
import { ApiError, StreamTruncated } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { chatRequest, collect, completionRequest } from "@friendli-stream/test-harness/fixtures"
import { type AdapterClientOptions, apiRequests, type Context, lastApiRequest } from "../support.ts"

export const faultTests = (c: Context): void => {
  const withFault = (fault: string, options: AdapterClientOptions = {}) =>
    c.client({ headers: { "x-mock-fault": fault }, ...options })

  describe("faults end in their typed error, after every chunk before them", () => {
    it("a body cut after 3 events ends in StreamTruncated after 3 chunks", async () => {
      const { items, error } = await collect(withFault("truncate:3").completions.stream(completionRequest()))
      assert.equal(items.length, 3)
      assert.ok(error instanceof StreamTruncated, String(error))
    })

    it("an in-stream error after 2 events ends in ApiError after 2 chunks, without a retry", async () => {
      const before = (await apiRequests(c.mock())).length
      const { items, error } = await collect(withFault("error:2").chat.stream(chatRequest()))
      assert.equal(items.length, 2)
      assert.ok(error instanceof ApiError, String(error))
      assert.equal(error.retryable, true)
      assert.equal((await apiRequests(c.mock())).length - before, 1)
    })

    // The event written right before the reset may be lost on the wire (a TCP reset drops unread bytes); the one
    // written 50 ms earlier has been read by then.
    it("a connection reset after 2 events ends in ConnectionError (Receive) after the chunks read, without a retry", async () => {
      const before = (await apiRequests(c.mock())).length
      const { items, error } = await collect(withFault("delay:50,reset:2").completions.stream(completionRequest()))
      assert.ok(items.length >= 1 && items.length <= 2, `${items.length} chunks`)
      assert.ok(error instanceof ConnectionError, String(error))
      assert.equal(error.reason, "Receive")
      assert.equal((await apiRequests(c.mock())).length - before, 1)
    })

    it("a server that stops sending ends in TimeoutError (Idle) after the chunks it sent, and is disconnected", async () => {
      const started = Date.now()
      const { items, error } = await collect(
        withFault("stall:2", { idleTimeoutMs: 200 }).completions.stream(completionRequest()),
      )
      assert.equal(items.length, 2)
      assert.ok(error instanceof TimeoutError, String(error))
      assert.equal(error.reason, "Idle")
      assert.equal(error.timeoutMs, 200)
      assert.ok(Date.now() - started >= 190, `${Date.now() - started} ms`)
      const record = await c.mock().waitForDisconnect((await lastApiRequest(c.mock())).id)
      assert.equal(record.outcome, "disconnected")
    })

    it("the idle timeout fires although the server keeps sending keep-alive comments", async () => {
      const { items, error } = await collect(
        withFault("stall:1,keepalive:40", { idleTimeoutMs: 300 }).completions.stream(completionRequest()),
      )
      assert.equal(items.length, 1)
      assert.ok(error instanceof TimeoutError, String(error))
      assert.equal(error.reason, "Idle")
      const record = await c.mock().waitForDisconnect((await lastApiRequest(c.mock())).id)
      assert.ok(record.events.filter((e) => e.type === "comment").length >= 4, "keep-alives were sent meanwhile")
    })

    it("a server that answers nothing ends in TimeoutError (FirstByte), not retried", async () => {
      const before = (await apiRequests(c.mock())).length
      const started = Date.now()
      const { items, error } = await collect(
        withFault("delay-first:1000", { firstByteTimeoutMs: 150 }).chat.stream(chatRequest()),
      )
      assert.equal(items.length, 0)
      assert.ok(error instanceof TimeoutError, String(error))
      assert.equal(error.reason, "FirstByte")
      const gaveUpAt = Date.now()
      // The client gave up before the server's answer (due 1000 ms after the request): compared with the mock's record
      // of the same request, not with a fixed bound.
      const record = await c.mock().waitForSettled((await lastApiRequest(c.mock())).id)
      const answeredAt = record.events.find((e) => e.type === "response")?.at
      assert.ok(
        answeredAt === undefined || answeredAt > gaveUpAt,
        `the client gave up ${gaveUpAt - started} ms after the request, the mock answered after ` +
          `${(answeredAt ?? 0) - record.receivedAt} ms`,
      )
      assert.equal((await apiRequests(c.mock())).length - before, 1)
    })

    // Port 2 (compressnet): nothing listens there, and no runtime's fetch blocks it (Deno refuses port 9 itself).
    it("a server that is not there ends in ConnectionError (Send) after the retries", async () => {
      const client = c.client({ baseURL: "http://127.0.0.1:2/serverless", maxRetries: 1 })
      const { error } = await collect(client.completions.stream(completionRequest()))
      assert.ok(error instanceof ConnectionError, String(error))
      assert.equal(error.reason, "Send")
      assert.match(error.message, c.adapter.refusedMessage ?? /refused/i)
    })
  })

  describe("error statuses carry their parsed Friendli body", () => {
    it("401 is AuthenticationError with the {message} body", async () => {
      const { error } = await collect(c.client({ token: "wrong" }).completions.stream(completionRequest()))
      assert.ok(error instanceof AuthenticationError, String(error))
      assert.equal(error.status, 401)
      assert.ok(error.body !== undefined && "message" in error.body)
      assert.match(error.body.message, /not valid/)
      assert.match(error.requestId ?? "", /^req_/)
    })

    it("404 is NotFoundError with the {message} body", async () => {
      const { error } = await collect(c.client().chat.stream(chatRequest("x", { model: "no-such-model" })))
      assert.ok(error instanceof NotFoundError, String(error))
      assert.equal(error.status, 404)
      assert.ok(error.body !== undefined && "message" in error.body)
      assert.match(error.body.message, /no-such-model/)
    })

    it("422 is UnprocessableEntityError with the {detail: [...]} body", async () => {
      const { error } = await collect(c.client().completions.stream({ prompt: "no model" }))
      assert.ok(error instanceof UnprocessableEntityError, String(error))
      assert.equal(error.status, 422)
      assert.ok(error.body !== undefined && "detail" in error.body && Array.isArray(error.body.detail))
      assert.deepEqual(error.body.detail[0]?.loc, ["body", "model"])
      assert.match(error.message, /body\.model: Field required/)
    })

    it("429 is RateLimitError with the {error} body and Retry-After", async () => {
      const { error } = await collect(
        withFault("rate-limit:7", { maxRetries: 0 }).completions.stream(completionRequest()),
      )
      assert.ok(error instanceof RateLimitError, String(error))
      assert.equal(error.status, 429)
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
      assert.ok(error instanceof ServerError, String(error))
      assert.equal(error.status, 503)
      assert.ok(error.body !== undefined && "error" in error.body)
      assert.equal(error.body.error.type, "server_error")
    })
  })

  describe("connections", () => {
    it("leaves no request pending after errors, non-2xx answers and early exits, once the clients are closed", async () => {
      const client = c.client({ maxRetries: 0, idleTimeoutMs: 200 })
      await collect(client.completions.stream(completionRequest("x", { model: "no-such-model" })))
      await collect(client.completions.stream({ prompt: "no model" }))
      const stalled = c.client({ headers: { "x-mock-fault": "stall:1" }, idleTimeoutMs: 100 })
      await collect(stalled.completions.stream(completionRequest()))
      for await (const _ of client.completions.stream(completionRequest())) break
      await c.closeClients()
      for (const r of await apiRequests(c.mock())) {
        const settled = await c.mock().waitForSettled(r.id)
        assert.notEqual(settled.outcome, "pending", `${r.id} is still pending`)
      }
    })
  })
}
