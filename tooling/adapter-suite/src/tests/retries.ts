import assert from "node:assert/strict"
import { RateLimitError, ServerError } from "@friendli-stream/client"
import { describe, it } from "@friendli-stream/test-harness"
import { chatRequest, collect, completionRequest } from "@friendli-stream/test-harness/fixtures"
import type { RequestRecord } from "../mock.ts"
import { apiRequests, type Context } from "../support.ts"

export const retryTests = (c: Context): void => {
  /** The API requests made since `before` of them had been seen, each settled. */
  const since = async (before: number): Promise<Array<RequestRecord>> =>
    Promise.all((await apiRequests(c.mock())).slice(before).map((r) => c.mock().waitForSettled(r.id)))
  const count = async () => (await apiRequests(c.mock())).length

  describe("retries", () => {
    it("waits for Retry-After after a 429, then streams the retry to its end", async () => {
      const before = await count()
      await c.mock().queueFaults("rate-limit:1")
      const started = Date.now()
      const { items, error } = await collect(c.client().completions.stream(completionRequest()))
      const elapsed = Date.now() - started
      assert.equal(error, undefined)
      assert.ok(items.length > 0)
      const [first, second] = await since(before)
      assert.equal(first?.status, 429)
      assert.equal(second?.status, 200)
      const gap = second!.receivedAt - first!.completedAt!
      assert.ok(gap >= 990, `${gap} ms apart`)
      assert.ok(elapsed >= 990, `streamed after ${elapsed} ms (the retry ${gap} ms after the 429)`)
    })

    it("retries 5xx answers with backoff until one succeeds", async () => {
      const before = await count()
      await c.mock().queueFaults("status:503", "status:502")
      const completion = await c.client().chat.stream(chatRequest()).finalCompletion()
      assert.ok((completion.choices[0]?.message.content ?? "").length > 0)
      assert.deepEqual(
        (await since(before)).map((r) => r.status),
        [503, 502, 200],
      )
    })

    it("gives up after maxRetries and reports the last status", async () => {
      const before = await count()
      const client = c.client({ headers: { "x-mock-fault": "status:500" }, maxRetries: 2 })
      const { error } = await collect(client.completions.stream(completionRequest()))
      assert.ok(error instanceof ServerError, String(error))
      assert.match(error.message, /after 3 attempts/)
      assert.equal((await since(before)).length, 3)
    })

    it("does not wait for a Retry-After longer than maxRetryAfterMs", async () => {
      const before = await count()
      await c.mock().queueFaults("rate-limit:30")
      const { error } = await collect(c.client({ maxRetryAfterMs: 5000 }).completions.stream(completionRequest()))
      assert.ok(error instanceof RateLimitError, String(error))
      assert.equal(error.retryAfterMs, 30_000)
      assert.equal((await since(before)).length, 1)
    })

    it("retries an in-stream error that arrives before the first chunk", async () => {
      const before = await count()
      await c.mock().queueFaults("error:0")
      const { items, error } = await collect(c.client().completions.stream(completionRequest()))
      assert.equal(error, undefined)
      assert.ok(items.length > 0)
      assert.equal((await since(before)).length, 2)
    })

    it("retries a connection reset before the first chunk", async () => {
      const before = await count()
      await c.mock().queueFaults("reset:0")
      const { items, error } = await collect(c.client().completions.stream(completionRequest()))
      assert.equal(error, undefined)
      assert.ok(items.length > 0)
      const records = await since(before)
      assert.equal(records.length, 2)
      assert.equal(records[0]?.outcome, "reset")
    })

    it("retries a non-streamed request too", async () => {
      const before = await count()
      await c.mock().queueFaults("status:500")
      const response = await c.client().completions.create(completionRequest())
      assert.ok(response.choices.length > 0)
      assert.deepEqual(
        (await since(before)).map((r) => r.status),
        [500, 200],
      )
    })

    it("closes the failed attempt's connection before retrying", async () => {
      const before = await count()
      await c.mock().queueFaults("error:0,delay:1000")
      await collect(c.client().completions.stream(completionRequest()))
      const [first, second] = await since(before)
      const firstEnded = first?.completedAt ?? first?.disconnectedAt
      assert.ok(firstEnded !== undefined)
      assert.ok(second!.receivedAt >= firstEnded)
    })
  })
}
