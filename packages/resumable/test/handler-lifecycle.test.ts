// Leases, retention, the maximum duration and closing, with small times: each test its own handler.
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { eventsOf, post, readThenDrop, resume, startHarness, streamUrl, uniquePrompt, upstreamOf } from "./support.ts"

const idOf = (url: string): string => url.slice(url.lastIndexOf("/") + 1)
const codeOf = (data: string | undefined): unknown =>
  (JSON.parse(data ?? "{}") as { error?: { code?: unknown } }).error?.code

const until = async (what: string, check: () => Promise<boolean>, limitMs = 15_000): Promise<void> => {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > limitMs) assert.fail(`waited ${limitMs} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe("ResumableHandler lifecycle", () => {
  it("forgets a stream after its retention time: then 404, and nothing of it is left in the store", async () => {
    const h = await startHarness({ retentionMs: 300 })
    try {
      const response = await post(h, { prompt: uniquePrompt("retention"), max_tokens: 4 })
      const url = streamUrl(h, response)
      const events = await eventsOf(response)
      const ended = Date.now()
      await until("the stream to answer 404", async () => (await resume(url, events[0]?.id)).status === 404)
      console.log(`measured: a stream answered 404 ${Date.now() - ended} ms after its end (retention 300 ms)`)
      const body = (await (await resume(url)).json()) as { error: { code: string } }
      assert.equal(body.error.code, "stream_not_found")
      await until("nothing of the stream to be held", async () => !(await h.holds(idOf(url))))
      assert.deepEqual(await h.size(), { streams: 0, timers: 0, waitingReaders: 0 })
    } finally {
      await h.close()
    }
  })

  it("gives readers the events stored before the producer stopped, then producer_lost within the lease time", async () => {
    const leaseMs = 600
    const h = await startHarness({ leaseMs, retentionMs: 60_000 })
    try {
      const prompt = uniquePrompt("producer lost")
      const controller = new AbortController()
      const response = await post(h, { prompt, max_tokens: 200, faults: "delay:20" }, controller.signal)
      const url = streamUrl(h, response)
      const head = await readThenDrop(response, 3, controller)
      h.killProducers()
      const killed = Date.now()
      const live = await eventsOf(await resume(url, head.at(-1)?.id))
      const waited = Date.now() - killed
      console.log(
        `measured: producer_lost reached a reader ${waited} ms after the producer stopped (lease ${leaseMs} ms)`,
      )
      const end = live.at(-1)
      assert.equal(end?.event, "error")
      assert.equal(codeOf(end?.data), "producer_lost")
      const whole = await eventsOf(await resume(url))
      assert.deepEqual(whole.slice(0, 3), head)
      assert.deepEqual(whole.slice(3), live)
      assert.deepEqual(
        whole.map((e) => e.id),
        whole.map((_, i) => `${idOf(url)}.${i + 1}`),
        "gap-free",
      )
    } finally {
      await h.close()
    }
  })

  it("stops a stream at its maximum duration with a timeout end and aborts the upstream request", async () => {
    const h = await startHarness({ maxDurationMs: 500, retentionMs: 60_000 })
    try {
      const prompt = uniquePrompt("timeout")
      const response = await post(h, { prompt, max_tokens: 50, faults: "stall:2,keepalive:50" })
      const events = await eventsOf(response)
      assert.equal(events.length, 3)
      assert.equal(events[2]?.event, "error")
      assert.equal(codeOf(events[2]?.data), "timeout")
      await h.mock.waitForDisconnect(upstreamOf(h.mock, prompt).id)
    } finally {
      await h.close()
    }
  })

  it("ends its running streams with producer_lost when the handler closes, and aborts their upstream requests", async () => {
    const h = await startHarness({ retentionMs: 60_000 })
    const prompt = uniquePrompt("close")
    try {
      const response = await post(h, { prompt, max_tokens: 50, faults: "stall:2,keepalive:50" })
      const reading = eventsOf(response)
      await h.mock.waitForRequest((r) => (r.body as { prompt?: string } | undefined)?.prompt === prompt)
      await until("the reader to wait for more", async () => (await h.size()).waitingReaders > 0)
      await h.closeHandler()
      const events = await reading
      assert.equal(codeOf(events.at(-1)?.data), "producer_lost")
      await h.mock.waitForDisconnect(upstreamOf(h.mock, prompt).id)
    } finally {
      await h.close()
    }
  })

  it("stops only the reader that goes away: the stream and its other readers go on", async () => {
    const h = await startHarness({ retentionMs: 60_000 })
    try {
      const prompt = uniquePrompt("one reader leaves")
      const response = await post(h, { prompt, max_tokens: 50, faults: "stall:2,keepalive:50" })
      const url = streamUrl(h, response)
      const staying = eventsOf(response)
      const controller = new AbortController()
      const leaving = await resume(url, undefined, controller.signal)
      await until("both readers to wait", async () => (await h.size()).waitingReaders === 2)
      controller.abort()
      await leaving.body?.cancel().catch(() => {})
      await until("the reader that left to stop", async () => (await h.size()).waitingReaders === 1)
      assert.equal(upstreamOf(h.mock, prompt).outcome, "pending", "the upstream goes on")
      assert.equal((await fetch(url, { method: "DELETE" })).status, 200)
      const events = await staying
      assert.equal(codeOf(events.at(-1)?.data), "cancelled")
      await until("no reader to wait", async () => (await h.size()).waitingReaders === 0)
    } finally {
      await h.close()
    }
  })
})
