import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { RateLimitError, ServerError } from "../src/index.ts"
import { apiRequests, chatRequest, collect, completionRequest, type Harness, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

/** The API requests made since `before` requests had been seen. */
const since = (before: number) => apiRequests(h.mock).slice(before)

describe("retries", () => {
  it("waits for Retry-After after a 429, then streams the retry to its end", async () => {
    const before = apiRequests(h.mock).length
    h.mock.queueFaults("rate-limit:1")
    const started = Date.now()
    const { items, error } = await collect(h.client().completions.stream(completionRequest()))
    const elapsed = Date.now() - started
    assert.equal(error, undefined)
    assert.ok(items.length > 0)
    const [first, second] = since(before)
    assert.equal(first?.status, 429)
    assert.equal(second?.status, 200)
    assert.ok(second!.receivedAt - first!.completedAt! >= 990, `${second!.receivedAt - first!.completedAt!} ms apart`)
    assert.ok(elapsed >= 1000 && elapsed < 3000, `${elapsed} ms`)
  })

  it("retries 5xx answers with backoff until one succeeds", async () => {
    const before = apiRequests(h.mock).length
    h.mock.queueFaults("status:503", "status:502")
    const completion = await h.client().chat.stream(chatRequest()).finalCompletion()
    assert.ok((completion.choices[0]?.message.content ?? "").length > 0)
    assert.deepEqual(
      since(before).map((r) => r.status),
      [503, 502, 200],
    )
  })

  it("gives up after maxRetries and reports the last status", async () => {
    const before = apiRequests(h.mock).length
    const client = h.client({ headers: { "x-mock-fault": "status:500" }, maxRetries: 2 })
    const { error } = await collect(client.completions.stream(completionRequest()))
    assert.ok(error instanceof ServerError)
    assert.match(error.message, /after 3 attempts/)
    assert.equal(since(before).length, 3)
  })

  it("does not wait for a Retry-After longer than maxRetryAfterMs", async () => {
    const before = apiRequests(h.mock).length
    h.mock.queueFaults("rate-limit:30")
    const client = h.client({ maxRetryAfterMs: 5000 })
    const { error } = await collect(client.completions.stream(completionRequest()))
    assert.ok(error instanceof RateLimitError)
    assert.equal(error.retryAfterMs, 30_000)
    assert.equal(since(before).length, 1)
  })

  it("retries an in-stream error that arrives before the first chunk", async () => {
    const before = apiRequests(h.mock).length
    h.mock.queueFaults("error:0")
    const { items, error } = await collect(h.client().completions.stream(completionRequest()))
    assert.equal(error, undefined)
    assert.ok(items.length > 0)
    assert.equal(since(before).length, 2)
  })

  it("retries a connection reset before the first chunk", async () => {
    const before = apiRequests(h.mock).length
    h.mock.queueFaults("reset:0")
    const { items, error } = await collect(h.client().completions.stream(completionRequest()))
    assert.equal(error, undefined)
    assert.ok(items.length > 0)
    const records = since(before)
    assert.equal(records.length, 2)
    assert.equal(records[0]?.outcome, "reset")
  })

  it("retries a non-streamed request too", async () => {
    const before = apiRequests(h.mock).length
    h.mock.queueFaults("status:500")
    const response = await h.client().completions.create(completionRequest())
    assert.ok(response.choices.length > 0)
    assert.deepEqual(
      since(before).map((r) => r.status),
      [500, 200],
    )
  })

  it("closes the failed attempt's connection before retrying", async () => {
    const before = apiRequests(h.mock).length
    h.mock.queueFaults("error:0,delay:1000")
    await collect(h.client().completions.stream(completionRequest()))
    const [first, second] = since(before)
    assert.ok(first?.completedAt !== undefined || first?.disconnectedAt !== undefined)
    assert.ok(second!.receivedAt >= (first!.completedAt ?? first!.disconnectedAt!))
  })
})
