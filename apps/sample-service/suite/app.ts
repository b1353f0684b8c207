// The app on a real socket, driven over HTTP: with the embedded mock (no token), and pointed at a mock that wants
// a token.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { createMockFriendli, type MockFriendli } from "@friendli-stream/testing"
import type { AppOptions, RunningApp } from "../src/index.ts"
import { post, readSse, textOf } from "./sse.ts"

/**
 * A sample as the suite drives it: its `startApp`, and how its runtime serves the mock that wants a token.
 *
 * @since 0.1.0
 */
export interface AppUnderTest {
  /** The runtime, in the tests' names: `"Deno"`, `"Bun"`. */
  readonly name: string
  /** The sample's `startApp` (`main.ts`). */
  readonly startApp: (options: AppOptions) => Promise<RunningApp>
  /** Serves a mock on a free port of 127.0.0.1 (`serveDeno`, `serveBun`). */
  readonly serveMock: (mock: MockFriendli) => Promise<{ readonly url: string; close(): Promise<void> }>
}

export const appTests = ({ name, startApp, serveMock }: AppUnderTest): void => {
  describe(`the ${name} app without a token (the embedded mock)`, () => {
    let app: RunningApp

    beforeAll(async () => {
      app = await startApp({ port: 0, mockFaults: "delay:20" })
    })
    afterAll(async () => {
      await app.close()
    })

    it("streams a completion as server-sent events, chunk by chunk, ending with [DONE]", async () => {
      assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+$/)
      const res = await post(app.url, { prompt: "Once upon a time", max_tokens: 8 })
      assert.equal(res.status, 200)
      assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8")
      const { events, reads } = await readSse(res)
      assert.equal(events.at(-1), "[DONE]")
      const chunks = events
        .slice(0, -1)
        .map((e) => JSON.parse(e) as { choices: Array<{ text?: string }>; usage?: unknown })
      assert.equal(chunks.filter((c) => (c.choices[0]?.text ?? "") !== "").length, 8)
      assert.ok(chunks.at(-1)?.usage, "the last chunk carries the usage")
      assert.ok(textOf(events).trim().length > 0)
      // The mock waits 20 ms between events: they arrive in many reads, not in one piece at the end.
      assert.ok(reads >= 5, `the body came in ${reads} reads`)
    })

    it("takes the prompt from the query string of a GET", async () => {
      const res = await fetch(`${app.url}/v1/stream?prompt=Hello&max_tokens=3`)
      assert.equal(res.status, 200)
      const { events } = await readSse(res)
      assert.equal(events.at(-1), "[DONE]")
      const upstream = app.mock!.lastRequest()!.body as { prompt: string; max_tokens: number }
      assert.deepEqual([upstream.prompt, upstream.max_tokens], ["Hello", 3])
    })

    it("answers a request without a prompt, a body that is not JSON and a bad max_tokens with a 400 JSON error", async () => {
      for (const body of [{}, "not json", { prompt: "Hi", max_tokens: 0 }, { prompt: "" }]) {
        const res = await post(app.url, body)
        assert.equal(res.status, 400, JSON.stringify(body))
        assert.equal(res.headers.get("content-type"), "application/json")
        const error = ((await res.json()) as { error: { message: string; type: string } }).error
        assert.equal(error.type, "invalid_request_error")
        assert.match(error.message, /prompt|JSON|max_tokens/)
      }
    })

    it("answers an unknown path with 404 and a wrong method with 405, as JSON", async () => {
      const missing = await fetch(`${app.url}/nowhere`)
      assert.equal(missing.status, 404)
      assert.match(((await missing.json()) as { error: { message: string } }).error.message, /POST \/v1\/stream/)
      const wrong = await fetch(`${app.url}/v1/stream`, { method: "DELETE" })
      assert.equal(wrong.status, 405)
      assert.equal(wrong.headers.get("allow"), "GET, POST")
      await wrong.body?.cancel()
    })

    it("shows how to use it at /", async () => {
      const res = await fetch(`${app.url}/`)
      assert.equal(res.status, 200)
      assert.match(await res.text(), new RegExp(`curl -N ${app.url}/v1/stream`))
    })

    it("serves GET /debug/memory (heap and resident memory, for load runs) only when asked to", async () => {
      const off = await fetch(`${app.url}/debug/memory`)
      assert.equal(off.status, 404)
      await off.body?.cancel()
      const debug = await startApp({ port: 0, debugMemory: true })
      try {
        const res = await fetch(`${debug.url}/debug/memory`)
        assert.equal(res.status, 200)
        const stats = (await res.json()) as { heapUsed: number; rss: number; gc: boolean }
        assert.ok(stats.heapUsed > 0 && stats.rss >= stats.heapUsed, JSON.stringify(stats))
        assert.equal(typeof stats.gc, "boolean")
      } finally {
        await debug.close()
      }
    })

    it("goes on generating when its reader goes away: the request to the model server runs to its end", async () => {
      const abort = new AbortController()
      const res = await post(app.url, { prompt: "a short story", max_tokens: 12 }, abort.signal)
      const reader = res.body!.getReader()
      await reader.read()
      const upstream = app.mock!.lastRequest()!
      abort.abort()
      await reader.cancel().catch(() => {})
      const record = await app.mock!.waitForSettled(upstream.id, { timeoutMs: 10_000 })
      assert.equal(record.outcome, "completed")
    })
  })

  describe(`the ${name} app with a token`, () => {
    let mock: MockFriendli
    let server: Awaited<ReturnType<typeof serveMock>>
    let app: RunningApp

    beforeAll(async () => {
      mock = createMockFriendli({ tokens: ["flp_right"] })
      server = await serveMock(mock)
    })
    afterAll(async () => {
      await server.close()
    })

    it("streams from the server it is pointed at, sending the token, with no embedded mock", async () => {
      app = await startApp({ port: 0, token: "flp_right", baseURL: `${server.url}/serverless`, model: "my-model" })
      try {
        assert.equal(app.mock, undefined)
        const { events } = await readSse(await post(app.url, { prompt: "Hi", max_tokens: 2 }))
        assert.equal(events.at(-1), "[DONE]")
        const seen = mock.lastRequest()!
        assert.equal(seen.headers.authorization, "Bearer flp_right")
        assert.equal((seen.body as { model: string }).model, "my-model")
      } finally {
        await app.close()
      }
    })

    it("answers a refused token with a 502 JSON error that says what the server said", async () => {
      app = await startApp({ port: 0, token: "flp_wrong", baseURL: `${server.url}/serverless` })
      try {
        const res = await post(app.url, { prompt: "Hi" })
        assert.equal(res.status, 502)
        const error = ((await res.json()) as { error: { message: string; type: string; code: unknown } }).error
        assert.equal(error.code, 401)
        assert.match(`${error.type} ${error.message}`, /Authentication|token/i)
      } finally {
        await app.close()
      }
    })

    it("passes on the server's 422 for a request it refuses", async () => {
      app = await startApp({ port: 0, token: "flp_right", baseURL: `${server.url}/serverless`, model: "m" })
      try {
        mock.queueFaults("status:422")
        const res = await post(app.url, { prompt: "Hi" })
        assert.equal(res.status, 422)
        assert.ok(((await res.json()) as { error: { message: string } }).error.message.length > 0)
      } finally {
        await app.close()
      }
    })
  })
}
