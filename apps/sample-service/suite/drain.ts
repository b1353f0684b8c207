// SIGTERM, as a rolling deploy sends it, to the service as a process of its own: no new streams (503 with
// Retry-After), the streams in flight end with [DONE] within the grace period, the rest after it with a typed
// producer_lost end, and the process exits with 0.
import assert from "node:assert/strict"
import process from "node:process"
import { describe, it } from "@friendli-stream/test-harness"
import { endReasonOf, type Opened, readAll, readSome, start } from "./events.ts"
import { type ServiceCommand, type ServiceProcess, startService } from "./processes.ts"
import { post } from "./sse.ts"

/** Resolves once the process printed a line matching `pattern`. */
const printed = (service: ServiceProcess, pattern: RegExp): Promise<void> =>
  new Promise((resolve) => {
    const check = () => {
      if (!pattern.test(service.output())) return false
      service.child.stdout!.off("data", check)
      resolve()
      return true
    }
    if (!check()) service.child.stdout!.on("data", check)
  })

/** Starts `count` streams and reads the first event of each: they are in flight. */
const inFlight = async (url: string, count: number, max_tokens: number): Promise<Array<Opened>> =>
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const opened = await start(url, { prompt: `in flight ${i}`, max_tokens })
      assert.equal(opened.res.status, 200)
      assert.equal((await readSome(opened.events, 1)).length, 1)
      return opened
    }),
  )

/**
 * Sends SIGTERM by pid (Deno's `ChildProcess.kill(signal)` reports that signal as how the child ended, whatever it
 * exited with).
 */
const sigterm = (service: ServiceProcess): void => {
  process.kill(service.child.pid!, "SIGTERM")
}

const exitCode = async (service: ServiceProcess): Promise<number | null> => {
  await service.exited
  return service.child.exitCode
}

export const drainTests = (name: string, service: ServiceCommand): void => {
  describe(`the ${name} service on SIGTERM`, () => {
    it("takes no new stream (503, Retry-After), lets those in flight end with [DONE], and exits with 0", async () => {
      const running = await startService(service, { MOCK_FAULTS: "delay:40", DRAIN_GRACE_MS: "30000" })
      try {
        const streams = await inFlight(running.url, 3, 12)
        sigterm(running)
        await printed(running, /SIGTERM: draining/)
        const refused = await post(running.url, { prompt: "too late" })
        assert.equal(refused.status, 503)
        assert.equal(refused.headers.get("retry-after"), "1")
        assert.match(((await refused.json()) as { error: { message: string } }).error.message, /shutting down/)
        for (const stream of streams) {
          const rest = await readAll(stream.events)
          assert.equal(rest.at(-1)?.data, "[DONE]", JSON.stringify(rest.at(-1)))
        }
        assert.equal(await exitCode(running), 0, running.output())
        assert.match(running.output(), /drained: every stream finished/)
      } finally {
        await running.kill()
      }
    }, 30_000)

    it("ends the streams still running after DRAIN_GRACE_MS with producer_lost, and exits with 0", async () => {
      const running = await startService(service, { MOCK_FAULTS: "delay:5", DRAIN_GRACE_MS: "200" })
      try {
        await fetch(`${running.mockUrl}/_mock/faults`, { method: "POST", body: "stall:1" }).then((r) => r.text())
        const [stalled] = await inFlight(running.url, 1, 8)
        sigterm(running)
        const rest = await readAll(stalled!.events)
        assert.equal(endReasonOf(rest.at(-1)!), "producer_lost", JSON.stringify(rest.at(-1)))
        assert.equal(await exitCode(running), 0, running.output())
        assert.match(running.output(), /the rest ended \(producer_lost\)/)
      } finally {
        await running.kill()
      }
    }, 30_000)
  })
}
