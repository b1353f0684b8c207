// The Worker sample's command, `pnpm --filter @friendli-stream/worker-app start` (wrangler dev), as a person runs it:
// it builds what it needs, serves the page, says nothing a user cannot act on, and `kill <pid>` of pnpm stops
// wrangler and workerd and frees the port.
import assert from "node:assert/strict"
import { killAndWaitForPort, PNPM_NOISE, startCommand } from "@friendli-stream/sample-service/suite/command"
import { describe, it } from "@friendli-stream/test-harness"

describe("pnpm --filter @friendli-stream/worker-app start", () => {
  it("serves the page and the stream quietly, and stops on kill <pid> of pnpm, freeing its port", async () => {
    const started = await startCommand("@friendli-stream/worker-app", ["--port", "0"], /Ready on (http:\/\/\S+)/)
    try {
      const page = await fetch(started.url)
      assert.equal(page.status, 200)
      await page.body?.cancel()
      // a client that goes away in the middle of a stream
      const controller = new AbortController()
      const res = await fetch(`${started.url}/v1/stream`, {
        method: "POST",
        body: JSON.stringify({ prompt: "Once upon a time", max_tokens: 200 }),
        signal: controller.signal,
      })
      const reader = res.body!.getReader()
      await reader.read()
      controller.abort()
      await reader.read().catch(() => undefined)
    } finally {
      const ms = await killAndWaitForPort(started)
      console.log(`worker-app: port free ${ms} ms after SIGTERM to pnpm`)
    }
    await started.exited
    const output = started.output()
    assert.doesNotMatch(output, PNPM_NOISE, output)
    // no banner with an update notice, no offline Request.cf stack, no stack of a client that went away
    assert.doesNotMatch(
      output,
      /update available|newer version|Request\.cf|cf\.json|Connection reset by peer|Network connection lost|\n\s+at /i,
      output,
    )
  }, 120_000)
})
