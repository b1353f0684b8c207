// The service under abuse, in-process on a real socket: the proxy-safe SSE headers and keep-alives, its bounds (a
// body too large, too slow, too many streams open) each with its status and JSON message, CORS, and a run of
// thousands of streams with the mock's records bounded and the memory flat.
import assert from "node:assert/strict"
import process from "node:process"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import type { RunningApp } from "../src/index.ts"
import type { AppUnderTest } from "./app.ts"
import { cancel, locationOf, readSome, start } from "./events.ts"
import { rawRequest } from "./raw.ts"
import { post, readSse } from "./sse.ts"

const ORIGIN = "https://app.example"

const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; type: string } }).error

/** Tries `check` until it holds (each try is a request that observes the state), at most `tries` times. */
const eventually = async (check: () => Promise<boolean>, what: string, tries = 200) => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  assert.fail(what)
}

/** A full garbage collection where the runtime offers one (Bun's `Bun.gc`, Node's `gc` through V8's flag); Deno has none. */
const forcedGc = async (): Promise<(() => void) | undefined> => {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun
  if (bun !== undefined) return () => bun.gc(true)
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) return undefined
  const [v8, vm] = await Promise.all([import("node:v8"), import("node:vm")])
  v8.setFlagsFromString("--expose-gc")
  const gc = vm.runInNewContext("gc") as unknown
  return typeof gc === "function" ? (gc as () => void) : undefined
}

export const hardeningTests = ({ name, startApp }: AppUnderTest): void => {
  describe(`the ${name} app under abuse`, () => {
    let app: RunningApp

    beforeAll(async () => {
      app = await startApp({
        port: 0,
        mockFaults: "delay:5",
        keepAliveMs: 30,
        maxBodyBytes: 1024,
        bodyTimeoutMs: 300,
        maxStreams: 3,
        corsOrigins: [ORIGIN],
      })
    })
    afterAll(async () => {
      await app.close()
    })

    it("answers a stream with the proxy-safe headers: no-cache, no-transform, X-Accel-Buffering: no, utf-8", async () => {
      const res = await post(app.url, { prompt: "Hi", max_tokens: 3 })
      assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8")
      assert.equal(res.headers.get("cache-control"), "no-cache, no-transform")
      assert.equal(res.headers.get("x-accel-buffering"), "no")
      assert.equal((await readSse(res)).events.at(-1), "[DONE]")
    })

    it("sends a keep-alive comment while the first token is late (the mock's delay-first), then the same events", async () => {
      app.mock!.queueFaults("delay-first:600")
      const res = await post(app.url, { prompt: "Think first", max_tokens: 4 })
      assert.equal(res.status, 200)
      const reader = res.body!.getReader()
      // the mock has not answered yet: the first bytes out can only be a keep-alive
      assert.equal(new TextDecoder().decode((await reader.read()).value), ": keep-alive\n\n")
      let text = ""
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value)
      const events = text.split("\n\n").filter((e) => e.startsWith("id:") || e.startsWith("data:"))
      assert.match(events.at(-1) ?? "", /data: \[DONE\]$/)
      assert.equal(events.filter((e) => e.includes('"text"')).length >= 4, true, text)
    })

    it("answers a Content-Length over MAX_BODY_BYTES with 413 at once, as JSON", async () => {
      const res = await post(app.url, { prompt: "x".repeat(2000) })
      assert.equal(res.status, 413)
      const error = await errorOf(res)
      assert.match(error.message, /larger than 1024 bytes \(MAX_BODY_BYTES\)/)
      assert.equal(error.type, "invalid_request_error")
    })

    it("answers a chunked body that grows past MAX_BODY_BYTES with 413", async () => {
      const piece = "x".repeat(600)
      const chunk = `${piece.length.toString(16)}\r\n${piece}\r\n`
      const answer = await rawRequest(
        app.url,
        "POST /v1/stream HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked",
        [chunk, chunk, chunk],
      )
      assert.equal(answer.status, 413, answer.text)
      assert.match(answer.text, /MAX_BODY_BYTES/)
    })

    it("answers a body that does not arrive within BODY_TIMEOUT_MS with 408, as JSON", async () => {
      const answer = await rawRequest(
        app.url,
        "POST /v1/stream HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100",
        ['{"prompt": "never fin'],
      )
      assert.equal(answer.status, 408, answer.text)
      assert.match(answer.text, /did not arrive within 300 ms \(BODY_TIMEOUT_MS\)/)
    })

    it("still checks the fields of a body within the bounds (400)", async () => {
      const res = await post(app.url, { prompt: "" })
      assert.equal(res.status, 400)
      assert.match((await errorOf(res)).message, /prompt/)
    })

    it("answers one stream more than MAX_STREAMS with 503 and Retry-After, and takes streams again once one ends", async () => {
      app.mock!.queueFaults("stall:1", "stall:1", "stall:1")
      const open = [] as Array<Awaited<ReturnType<typeof start>>>
      for (let i = 0; i < 3; i++) {
        const opened = await start(app.url, { prompt: `held ${i}`, max_tokens: 8 })
        assert.equal(opened.res.status, 200)
        await readSome(opened.events, 1)
        open.push(opened)
      }
      const refused = await post(app.url, { prompt: "one more" })
      assert.equal(refused.status, 503)
      assert.equal(refused.headers.get("retry-after"), "1")
      assert.match((await errorOf(refused)).message, /MAX_STREAMS/)
      for (const opened of open) {
        assert.equal((await cancel(app.url, locationOf(opened.res))).status, 200)
        await opened.events.drop()
      }
      await eventually(async () => {
        const res = await post(app.url, { prompt: "again", max_tokens: 1 })
        if (res.status === 503) {
          await res.body?.cancel()
          return false
        }
        assert.equal((await readSse(res)).events.at(-1), "[DONE]")
        return true
      }, "a stream is taken again once the open ones ended")
    })

    it("answers a CORS preflight from an allowed origin with 204 and what it allows", async () => {
      const res = await fetch(`${app.url}/v1/stream`, {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, last-event-id",
        },
      })
      assert.equal(res.status, 204)
      assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN)
      assert.equal(res.headers.get("access-control-allow-methods"), "GET, POST, DELETE, OPTIONS")
      assert.match(res.headers.get("access-control-allow-headers") ?? "", /last-event-id/)
      assert.match(res.headers.get("vary") ?? "", /Origin/)
      const foreign = await fetch(`${app.url}/v1/stream`, {
        method: "OPTIONS",
        headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      })
      assert.equal(foreign.status, 403)
      assert.equal(foreign.headers.get("access-control-allow-origin"), null)
      await foreign.body?.cancel()
    })

    it("exposes Location to an allowed origin's stream", async () => {
      const res = await fetch(`${app.url}/v1/stream`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ prompt: "Hi", max_tokens: 1 }),
      })
      assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN)
      assert.match(res.headers.get("access-control-expose-headers") ?? "", /Location/)
      assert.match(res.headers.get("location") ?? "", /^\/v1\/stream\//)
      assert.equal((await readSse(res)).events.at(-1), "[DONE]")
    })
  })

  describe(`the ${name} app over many streams`, () => {
    // 2,000 streams of one token, 64 at once: each costs a few ms of CPU, so the run stays well under a minute on a
    // loaded 2-core machine; a mock that remembers 100 requests shows its records bounded well before the end, and the
    // heap is measured once they are full (after 500 streams) and again at the end, in the same run.
    it("keeps the mock's records bounded and its memory flat over 2,000 streams", async () => {
      const app = await startApp({ port: 0, mockFaults: "", retentionMs: 50, mockMaxRecords: 100 })
      const gc = await forcedGc()
      const heap = () => {
        gc?.()
        return process.memoryUsage().heapUsed
      }
      try {
        const run = async (count: number) => {
          let next = 0
          await Promise.all(
            Array.from({ length: Math.min(64, count) }, async () => {
              while (next < count) {
                next++
                const res = await post(app.url, { prompt: "load", max_tokens: 1 })
                assert.equal((await readSse(res)).events.at(-1), "[DONE]")
              }
            }),
          )
        }
        await run(1)
        const first = app.mock!.lastRequest()!.id
        await run(499)
        const warm = heap()
        const started = performance.now()
        await run(1500)
        const ms = performance.now() - started
        const after = heap()
        const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`
        console.log(
          `measured: ${name} heap after 500 streams ${mib(warm)}, after 2,000 ${mib(after)} (${gc === undefined ? "no forced GC" : "after a GC"}); ${(ms / 1500).toFixed(1)} ms a stream (64 at a time)`,
        )
        assert.equal(app.mock!.request(first), undefined, "the mock forgot its first record (maxRecords)")
        // Without a forced collection (Deno) the heap holds garbage too: only the records are checked there.
        if (gc !== undefined) {
          assert.ok(after < warm + 16 * 1024 * 1024, `the heap grew from ${mib(warm)} to ${mib(after)} after a GC`)
        }
      } finally {
        await app.close()
      }
    }, 240_000)
  })

  describe(`the ${name} app without CORS_ORIGINS`, () => {
    it("sends no CORS headers (same-origin pages only)", async () => {
      const app = await startApp({ port: 0, mockFaults: "" })
      try {
        const res = await fetch(`${app.url}/v1/stream?prompt=Hi&max_tokens=1`, { headers: { origin: ORIGIN } })
        assert.equal(res.headers.get("access-control-allow-origin"), null)
        assert.equal((await readSse(res)).events.at(-1), "[DONE]")
      } finally {
        await app.close()
      }
    })
  })
}
