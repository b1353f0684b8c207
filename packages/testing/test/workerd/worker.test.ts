// The Worker entry (src/Worker.ts, the pool's main module) running in workerd, called through workerd's own
// HTTP pipeline with SELF.fetch. test/node/wrangler.test.ts serves the same Worker with wrangler on a real socket
// (and checks client disconnects there: SELF does not carry a cancel back to the Worker).

import { SELF } from "cloudflare:test"
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { requestIdOf } from "../../src/index.ts"
import { workerMock } from "../../src/Worker.ts"
import { accumulateText, completionsBody, readStream } from "../helpers.ts"

const PATH = "/serverless/v1/completions"
const headers = { authorization: "Bearer t", "content-type": "application/json" }

describe("the Worker", () => {
  it("streams one completion through workerd, equal to the non-streamed answer", async () => {
    assert.equal(navigator.userAgent, "Cloudflare-Workers")
    const body = completionsBody({ max_tokens: 8, seed: 1 })
    const res = await SELF.fetch(`http://mock${PATH}`, { method: "POST", headers, body: JSON.stringify(body) })
    assert.equal(res.status, 200)
    assert.equal(res.headers.get("content-type"), "text/event-stream")
    const { chunks, done } = await readStream(res as unknown as Response)
    assert.equal(done, true)
    const whole = (await (
      await SELF.fetch(`http://mock${PATH}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ ...body, stream: false }),
      })
    ).json()) as { choices: Array<{ text: string }> }
    assert.equal(accumulateText(chunks).get(0), whole.choices[0]!.text)
  })

  it("keeps its records in the isolate, readable in-process and over the control routes", async () => {
    const res = await SELF.fetch(`http://mock${PATH}`, {
      method: "POST",
      headers,
      body: JSON.stringify(completionsBody()),
    })
    const id = requestIdOf(res as unknown as Response)
    await res.text()
    const record = await workerMock().waitForSettled(id)
    assert.equal(record.outcome, "completed")
    const over = (await (await SELF.fetch(`http://mock/_mock/requests/${id}`)).json()) as { id: string }
    assert.equal(over.id, id)
  })

  it("errors the body on the reset fault", async () => {
    const res = await SELF.fetch(`http://mock${PATH}`, {
      method: "POST",
      headers: { ...headers, "x-mock-fault": "reset:1" },
      body: JSON.stringify(completionsBody()),
    })
    await assert.rejects(() => res.text())
  })
})
