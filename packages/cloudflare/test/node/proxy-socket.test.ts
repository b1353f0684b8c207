// proxyCompletionStream as a browser meets it: the Worker of test/workerd/worker.ts served by wrangler (workerd) on a
// real socket, fetched from Node; the upstream the mock in Node on another socket.
import assert from "node:assert/strict"
import { fileURLToPath } from "node:url"
import { MOCK_OPTIONS, MODEL, TOKEN } from "@friendli-stream/adapter-suite/mock"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { type StartedWorker, startWorker } from "@friendli-stream/test-harness/wrangler"
import { createMockFriendli, type MockFriendli } from "@friendli-stream/testing"
import { type RunningServer, serveNode } from "@friendli-stream/testing/node"

describe("proxyCompletionStream behind wrangler, over real sockets", () => {
  let mock: MockFriendli
  let upstream: RunningServer
  let worker: StartedWorker | undefined
  let url: string

  beforeAll(async () => {
    mock = createMockFriendli(MOCK_OPTIONS)
    upstream = await serveNode(mock)
    worker = await startWorker({
      config: fileURLToPath(new URL("./wrangler.jsonc", import.meta.url)),
      vars: { FRIENDLI_TOKEN: TOKEN, FRIENDLI_BASE_URL: `${upstream.url}/serverless` },
    })
    url = worker.url
  }, 60_000)

  afterAll(async () => {
    await worker?.stop()
    await upstream?.close()
  }, 30_000)

  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(`${url}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: signal ?? null,
    })

  it("passes the first token to the browser while the upstream is still streaming", async () => {
    mock.queueFaults("delay:150")
    const response = await post({ model: MODEL, prompt: "Slowly", max_tokens: 8, ignore_eos: true })
    assert.equal(response.status, 200)
    assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8")
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ""
    while (!text.includes("\n\n")) text += (await reader.read()).value ?? ""
    const firstAt = Date.now()
    const record = mock.lastRequest()!
    assert.equal(record.outcome, "pending", "the upstream is still streaming when the first event arrives")
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += value
    }
    const endAt = Date.now()
    assert.ok(text.endsWith("data: [DONE]\n\n"))
    assert.equal(text.split("\n\n").length - 1, 10) // 8 tokens, the finish chunk, [DONE]
    assert.ok(endAt - firstAt >= 800, `the end came ${endAt - firstAt} ms after the first event`)
  }, 15_000)

  it("answers an upstream 404 before the first token as a JSON error with status 404", async () => {
    const response = await post({ model: "no-such-model", prompt: "x" })
    assert.equal(response.status, 404)
    const body = (await response.json()) as { error: { type: string; message: string } }
    assert.equal(body.error.type, "NotFoundError")
    assert.match(body.error.message, /no-such-model/)
  })

  it("aborts the upstream request when the browser goes away", async () => {
    mock.queueFaults("delay:50")
    const controller = new AbortController()
    const response = await post({ model: MODEL, prompt: "Long", max_tokens: 60, ignore_eos: true }, controller.signal)
    const reader = response.body!.getReader()
    await reader.read()
    const id = mock.lastRequest()!.id
    const abortedAt = Date.now()
    controller.abort()
    const record = await mock.waitForDisconnect(id, { timeoutMs: 3000 })
    assert.equal(record.outcome, "disconnected")
    assert.ok(record.disconnectedAt! - abortedAt < 1000, `${record.disconnectedAt! - abortedAt} ms`)
  }, 15_000)
})
