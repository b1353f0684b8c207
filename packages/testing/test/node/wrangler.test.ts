// The Worker entry served by workerd through wrangler (what `wrangler dev -c packages/testing/wrangler.jsonc` runs),
// on a real socket, driven from Node.
import assert from "node:assert/strict"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { type StartedWorker, startWorker } from "@friendli-stream/test-harness/wrangler"
import { accumulateText, completionsBody, readStream } from "../helpers.ts"
import { abortAfterFirstEvent, headers, PATH } from "../support/serveSuite.ts"

describe("the Worker on wrangler", () => {
  let worker: StartedWorker | undefined
  let url: string

  beforeAll(async () => {
    worker = await startWorker({ config: fileURLToPath(new URL("../../wrangler.jsonc", import.meta.url)) })
    url = worker.url
    // workerd loads the Worker's module on its first request (seconds on a loaded machine): wait for that here, so
    // that the tests' own time limits measure the mock and not the cold start
    const health = await fetch(`${url}/_mock/health`)
    assert.equal(health.status, 200)
    await health.body?.cancel()
  }, 60_000)
  afterAll(async () => {
    await worker?.stop()
  }, 30_000)

  it("streams one completion over a real socket, equal to the non-streamed answer", async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
    const body = completionsBody({ max_tokens: 8, seed: 1 })
    const res = await fetch(`${url}${PATH}`, { method: "POST", headers, body: JSON.stringify(body) })
    assert.equal(res.status, 200)
    const { chunks, done } = await readStream(res)
    assert.equal(done, true)
    const whole = (await (
      await fetch(`${url}${PATH}`, { method: "POST", headers, body: JSON.stringify({ ...body, stream: false }) })
    ).json()) as { choices: Array<{ text: string }> }
    assert.equal(accumulateText(chunks).get(0), whole.choices[0]!.text)
    const id = res.headers.get("x-mock-request-id")!
    const record = (await (await fetch(`${url}/_mock/requests/${id}/settled`)).json()) as { outcome: string }
    assert.equal(record.outcome, "completed")
  })

  it("sees a client that goes away, through the control routes", async () => {
    const { res } = await abortAfterFirstEvent(url, "stall:1,keepalive:20")
    const id = res.headers.get("x-mock-request-id")!
    const waited = await fetch(`${url}/_mock/requests/${id}/disconnect?timeout=3000`)
    assert.equal(waited.status, 200, await waited.clone().text())
    assert.equal(((await waited.json()) as { outcome: string }).outcome, "disconnected")
  })

  // The reset fault is tested inside workerd (test/workerd/worker.test.ts). Behind wrangler's dev proxy the body usually
  // just ends early, but in 2 of 3 clean-clone CI runs a reset request through the proxy did not finish within 30 s
  // (never locally, even under load): what the proxy does with an errored body is not asserted here.
})
