// The tests of the mock on a real socket that every runtime's serve function passes the same way. Each runtime's
// test/<runtime>/serve.test.ts calls serveSuite (or describeServed, for tests of its own) with its serve function.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { createMockFriendli, type MockFriendli, requestIdOf } from "../../src/index.ts"
import type { RunningServer, Servable } from "../../src/Serve.ts"
import { accumulateText, completionsBody, readStream } from "../helpers.ts"

/** The streamed completions route. */
export const PATH = "/serverless/v1/completions"
/** A valid token and a JSON body. */
export const headers = { authorization: "Bearer t", "content-type": "application/json" }

/** A runtime's way to serve the mock on 127.0.0.1 and a free port. */
export type Serve = (target: Servable) => Promise<RunningServer>

/** The mock of a describe block and its server (started in beforeAll, closed in afterAll). */
export interface Served {
  readonly mock: MockFriendli
  readonly server: RunningServer
}

/** Declares `describe(name)`, with one mock served by `serve` for the whole block, and `tests` in it. */
export const describeServed = (name: string, serve: Serve, tests: (served: Served) => void): void => {
  describe(name, () => {
    const mock = createMockFriendli()
    let server: RunningServer | undefined
    const served: Served = {
      mock,
      get server() {
        assert.ok(server, "the server starts in beforeAll")
        return server
      },
    }

    beforeAll(async () => {
      server = await serve(mock)
    })
    afterAll(async () => {
      await server?.close()
    })

    tests(served)
  })
}

/**
 * Sends a request that stalls after its first event (`faults`, default `stall:1`), reads that event and aborts: the
 * response, its reader and when the abort happened.
 */
export const abortAfterFirstEvent = async (url: string, faults = "stall:1") => {
  const abort = new AbortController()
  const res = await fetch(`${url}${PATH}`, {
    method: "POST",
    headers: { ...headers, "x-mock-fault": faults },
    body: JSON.stringify(completionsBody()),
    signal: abort.signal,
  })
  const reader = res.body!.getReader()
  await reader.read()
  const abortedAt = Date.now()
  abort.abort()
  return { res, reader, abortedAt }
}

/** Declares `describe(name)` with the tests every runtime's server passes through `fetch` alone. */
export const serveSuite = (name: string, serve: Serve): void => {
  describeServed(name, serve, (served) => {
    const { mock } = served

    it("streams one completion over a real socket, equal to the non-streamed answer", async () => {
      const { server } = served
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/)
      const body = completionsBody({ max_tokens: 8, seed: 1 })
      const res = await fetch(`${server.url}${PATH}`, { method: "POST", headers, body: JSON.stringify(body) })
      assert.equal(res.status, 200)
      assert.equal(res.headers.get("content-type"), "text/event-stream")
      const { chunks, done } = await readStream(res)
      assert.equal(done, true)
      const whole = (await (
        await fetch(`${server.url}${PATH}`, {
          method: "POST",
          headers,
          body: JSON.stringify({ ...body, stream: false }),
        })
      ).json()) as { choices: Array<{ text: string }> }
      assert.equal(accumulateText(chunks).get(0), whole.choices[0]!.text)
      const record = mock.request(requestIdOf(res))
      assert.equal(record?.outcome, "completed")
      assert.equal(record?.url, `${server.url}${PATH}`)
    })

    it("sees a client that goes away from a stalled stream (the delay is printed)", async () => {
      // stall:1 sends one event and then nothing: only the client going away can end this request
      const { res, reader, abortedAt } = await abortAfterFirstEvent(served.server.url)
      await reader.cancel().catch(() => {})
      const record = await mock.waitForDisconnect(requestIdOf(res), { timeoutMs: 10_000 })
      assert.equal(record.outcome, "disconnected")
      console.log(`measured: ${name} saw the client go away ${record.disconnectedAt! - abortedAt} ms after its abort`)
    })

    it("aborts the response mid-body on the reset fault", async () => {
      // the client sees the connection end early: at the body read, or already at fetch when the runtime
      // read ahead of the headers
      await assert.rejects(async () => {
        const res = await fetch(`${served.server.url}${PATH}`, {
          method: "POST",
          headers: { ...headers, "x-mock-fault": "reset:1" },
          body: JSON.stringify(completionsBody()),
        })
        await res.text()
      })
      const record = await mock.waitForRequest((r) => r.faults === "reset:1")
      assert.equal((await mock.waitForSettled(record.id)).outcome, "reset")
    })
  })
}
