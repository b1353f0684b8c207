// What only the Node adapter has: its Readable views, and connections counted socket by socket on the server.
import assert from "node:assert/strict"
import { chunksSent, eventually } from "@friendli-stream/adapter-suite"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { collect, completionRequest } from "@friendli-stream/test-harness/fixtures"
import { toNodeReadable } from "../src/index.ts"
import { apiRequests, type Harness, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

/** A slow stream: one event every 30 ms, about 40 of them. */
const slow = () => completionRequest("Tell me a long story", { max_tokens: 40 })
const SLOW = { "x-mock-fault": "delay:30" }

/** How many times the destroy test runs in one suite run (its delays are printed: the flake rate is measured). */
const DESTROY_RUNS = 10

/**
 * Destroys the SSE view after its first event and waits for the mock to see the request's socket close (the event
 * itself, not a delay threshold). Returns how long after the destroy the mock saw it, and how many chunks it had sent
 * of the stream's 40.
 */
const destroyOnce = async (): Promise<{ delayMs: number; chunks: number }> => {
  const readable = toNodeReadable(h.client({ headers: SLOW }).completions.stream(slow()))
  let text = ""
  let destroyedAt = 0
  for await (const piece of readable) {
    text += String(piece)
    if (text.includes("\n\n")) {
      destroyedAt = Date.now()
      readable.destroy()
      break
    }
  }
  assert.match(text, /^data: \{/)
  // The whole stream takes about 1.2 s (40 events, 30 ms apart): a disconnect seen at all, with chunks left to
  // send, is one the destroy caused; the timeout only bounds a run where none comes.
  const record = await h.mock.waitForDisconnect(h.mock.lastRequest()!.id, { timeoutMs: 5000 })
  const delayMs = record.disconnectedAt! - destroyedAt
  const chunks = chunksSent(record)
  assert.equal(record.outcome, "disconnected", `outcome ${record.outcome} ${delayMs} ms after the destroy`)
  assert.ok(chunks < 40, `the mock sent all ${chunks} chunks before it saw the disconnect (${delayMs} ms after)`)
  return { delayMs, chunks }
}

describe("Node Readable views", () => {
  it(`destroying the Node Readable view closes the request's socket (${DESTROY_RUNS} runs, delays printed)`, async () => {
    const runs: Array<{ delayMs: number; chunks: number }> = []
    for (let i = 0; i < DESTROY_RUNS; i++) runs.push(await destroyOnce())
    const delays = runs.map((r) => r.delayMs)
    console.log(
      `measured: destroying the Node Readable view -> the mock saw the socket close after ${delays.join(", ")} ms ` +
        `(max ${Math.max(...delays)} ms; chunks sent ${runs.map((r) => r.chunks).join(", ")} of 40; ` +
        `${runs.length} of ${DESTROY_RUNS} runs disconnected)`,
    )
  }, 30_000)

  it("the objects Readable view yields chunks, and the SSE view ends with [DONE]", async () => {
    const client = h.client()
    const objects = await collect(toNodeReadable(client.completions.stream(completionRequest()), { mode: "objects" }))
    assert.ok(objects.items.length > 0)
    let sse = ""
    for await (const piece of toNodeReadable(client.completions.stream(completionRequest()))) sse += String(piece)
    assert.ok(sse.endsWith("data: [DONE]\n\n"))
    assert.equal(sse.split("\n\n").length - 2, objects.items.length)
  })
})

describe("connections", () => {
  it("leaves no connection open after errors, non-2xx answers and early exits, once the client is closed", async () => {
    const client = h.client({ maxRetries: 0, idleTimeoutMs: 200 })
    await collect(client.completions.stream(completionRequest("x", { model: "no-such-model" })))
    await collect(client.completions.stream({ prompt: "no model" }))
    const stalled = h.client({ headers: { "x-mock-fault": "stall:1" }, idleTimeoutMs: 100 })
    await collect(stalled.completions.stream(completionRequest()))
    for await (const _ of client.completions.stream(completionRequest())) break
    await eventually("at most one idle pooled connection is left", () => h.openSockets() <= 1)
    await client.close()
    await stalled.close()
    await eventually("no connection is left", () => h.openSockets() === 0)
    for (const r of apiRequests(h.mock)) assert.notEqual(r.outcome, "pending", `${r.id} is still pending`)
    assert.ok(chunksSent(h.mock.lastRequest()!) >= 1)
  })
})
