// The mock served by Bun.serve on a real socket.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { type RunningServer, serveBun } from "../../src/Bun.ts"
import { createMockFriendli, requestIdOf } from "../../src/index.ts"
import { accumulateText, completionsBody, readStream } from "../helpers.ts"

const PATH = "/serverless/v1/completions"
const headers = { authorization: "Bearer t", "content-type": "application/json" }

describe("serveBun", () => {
  const mock = createMockFriendli()
  let server: RunningServer

  beforeAll(async () => {
    server = await serveBun(mock)
  })
  afterAll(async () => {
    await server.close()
  })

  it("streams one completion over a real socket, equal to the non-streamed answer", async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/)
    const body = completionsBody({ max_tokens: 8, seed: 1 })
    const res = await fetch(`${server.url}${PATH}`, { method: "POST", headers, body: JSON.stringify(body) })
    assert.equal(res.status, 200)
    const { chunks, done } = await readStream(res)
    assert.equal(done, true)
    const whole = (await (
      await fetch(`${server.url}${PATH}`, { method: "POST", headers, body: JSON.stringify({ ...body, stream: false }) })
    ).json()) as { choices: Array<{ text: string }> }
    assert.equal(accumulateText(chunks).get(0), whole.choices[0]!.text)
    assert.equal(mock.request(requestIdOf(res))?.outcome, "completed")
  })

  it("sees a client that goes away within 50 ms", async () => {
    const abort = new AbortController()
    const res = await fetch(`${server.url}${PATH}`, {
      method: "POST",
      headers: { ...headers, "x-mock-fault": "stall:1" },
      body: JSON.stringify(completionsBody()),
      signal: abort.signal,
    })
    const reader = res.body!.getReader()
    await reader.read()
    const abortedAt = Date.now()
    abort.abort()
    await reader.cancel().catch(() => {})
    const record = await mock.waitForDisconnect(requestIdOf(res), { timeoutMs: 2000 })
    assert.ok(record.disconnectedAt! - abortedAt < 50, `disconnect seen after ${record.disconnectedAt! - abortedAt} ms`)
  })

  it("aborts the response mid-body on the reset fault", async () => {
    // the client sees the connection end early: at the body read, or already at fetch when the runtime
    // read ahead of the headers
    await assert.rejects(async () => {
      const res = await fetch(`${server.url}${PATH}`, {
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
