import assert from "node:assert/strict"
import { ApiError } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
  UnprocessableEntityError,
} from "../src/index.ts"
import { parseErrorBody, statusError } from "../src/internal/errors.ts"
import { isRetryable, parseRetryAfter } from "../src/internal/retry.ts"

const make = (status: number, body: unknown, extra: { requestId?: string; retryAfterMs?: number } = {}) =>
  statusError({
    status,
    text: typeof body === "string" ? body : JSON.stringify(body),
    requestId: extra.requestId,
    retryAfterMs: extra.retryAfterMs,
    url: "http://x/v1/completions",
    attempts: 1,
  })

describe("status errors", () => {
  it("maps each status family to its class", () => {
    const cases: Array<[number, new (...args: never) => unknown]> = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [422, UnprocessableEntityError],
      [429, RateLimitError],
      [500, ServerError],
      [503, ServerError],
      [405, UnexpectedStatusError],
      [408, UnexpectedStatusError],
    ]
    for (const [status, Class] of cases) {
      const error = make(status, { message: "m" })
      assert.ok(error instanceof Class, `${status} -> ${error._tag}`)
      assert.equal(error.status, status)
    }
  })

  it("parses the {message} body (401)", () => {
    const error = make(401, { message: "Unauthorized: bad token" }, { requestId: "req-7" })
    assert.deepEqual(error.body, { message: "Unauthorized: bad token" })
    assert.equal(error.requestId, "req-7")
    assert.match(error.message, /Unauthorized: bad token/)
    assert.match(error.message, /FRIENDLI_TOKEN/)
    assert.match(error.message, /req-7/)
  })

  it("parses the {detail: [...]} body (422) and names every field", () => {
    const error = make(422, {
      detail: [
        { loc: ["body", "model"], msg: "Field required", type: "missing" },
        { loc: ["body", "max_tokens"], msg: "too big", type: "x" },
      ],
    })
    assert.ok(error.body !== undefined && "detail" in error.body && Array.isArray(error.body.detail))
    assert.match(error.message, /body\.model: Field required; body\.max_tokens: too big/)
  })

  it("parses the {detail: string} body (404 route)", () => {
    const error = make(404, { detail: "Not Found" })
    assert.deepEqual(error.body, { detail: "Not Found" })
  })

  it("parses the {error: {...}} body (429, 5xx) and keeps Retry-After", () => {
    const error = make(
      429,
      { error: { message: "slow down", type: "rate_limit_error", code: "rate_limit_exceeded" } },
      { retryAfterMs: 2000 },
    )
    assert.ok(error.body !== undefined && "error" in error.body)
    assert.equal(error.body.error.code, "rate_limit_exceeded")
    assert.equal(error.retryAfterMs, 2000)
    assert.match(error.message, /slow down \(type rate_limit_error, code rate_limit_exceeded\)/)
  })

  it("keeps a body that is not a Friendli error as text only", () => {
    const error = make(502, "<html>Bad gateway</html>")
    assert.equal(error.body, undefined)
    assert.equal(error.text, "<html>Bad gateway</html>")
    assert.equal(parseErrorBody("{}"), undefined)
  })
})

describe("Retry-After", () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name]

  it("reads seconds, fractional seconds, retry-after-ms and HTTP dates", () => {
    assert.equal(parseRetryAfter(headers({ "retry-after": "3" }), 0), 3000)
    assert.equal(parseRetryAfter(headers({ "retry-after": "0.5" }), 0), 500)
    assert.equal(parseRetryAfter(headers({ "retry-after-ms": "250", "retry-after": "3" }), 0), 250)
    const now = Date.parse("2026-01-01T00:00:00Z")
    assert.equal(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now), 10_000)
    assert.equal(parseRetryAfter(headers({ "retry-after": "Wed, 31 Dec 2025 00:00:00 GMT" }), now), 0)
  })

  it("ignores a missing or unreadable header", () => {
    assert.equal(parseRetryAfter(headers({}), 0), undefined)
    assert.equal(parseRetryAfter(headers({ "retry-after": "soon" }), 0), undefined)
  })
})

describe("what is retried", () => {
  it("retries connection errors, 408, 409, 425, 429, 5xx and retryable in-stream errors only", () => {
    assert.equal(isRetryable(new ConnectionError({ reason: "Send", message: "x", url: "u" })), true)
    for (const status of [408, 409, 425, 429, 500, 503])
      assert.equal(isRetryable(make(status, {})), true, String(status))
    for (const status of [400, 401, 403, 404, 405, 422])
      assert.equal(isRetryable(make(status, {})), false, String(status))
    const apiError = (retryable: boolean) =>
      new ApiError({ message: "m", type: undefined, code: undefined, retryable, body: {}, eventIndex: 0 })
    assert.equal(isRetryable(apiError(true)), true)
    assert.equal(isRetryable(apiError(false)), false)
  })
})
