// The Worker in workerd, as wrangler.jsonc configures it: through workerd's HTTP pipeline (`exports.default`) with no
// token, so streaming from the mock in its own isolate; and called with a token, proxying to a mock in Node.

import { env as cloudflareEnv, exports } from "cloudflare:workers"
import assert from "node:assert/strict"
import { readSse } from "@friendli-stream/sample-service/suite/sse"
import { describe, it } from "@friendli-stream/test-harness"
import { workerMock } from "@friendli-stream/testing/worker"
import app from "../../src/index.ts"

const env = cloudflareEnv as unknown as { TOKEN_MOCK_URL: string; FRIENDLI_MODEL: string; FRIENDLI_TOKEN?: string }
const worker = (exports as unknown as { default: { fetch: (request: Request) => Promise<Response> } }).default

const streamRequest = (body: unknown): Request =>
  new Request("http://worker/api/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })

describe("the Worker without a token (the mock in its isolate)", () => {
  it("serves the page: a prompt, a Send button, the output and the live TTFT and tokens/s", async () => {
    assert.equal(env.FRIENDLI_TOKEN, undefined)
    const res = await worker.fetch(new Request("http://worker/"))
    assert.equal(res.status, 200)
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8")
    const html = await res.text()
    for (const id of ["prompt", "max-tokens", "send", "output", "state", "ttft", "tps", "tokens"]) {
      assert.match(html, new RegExp(`id="${id}"`), `the page has #${id}`)
    }
    assert.match(html, /fetch\("\/api\/stream"/)
  })

  it("streams the completion as server-sent events, chunk by chunk as the mock paces it, ending with [DONE]", async () => {
    const res = await worker.fetch(streamRequest({ prompt: "Once upon a time", max_tokens: 8 }))
    assert.equal(res.status, 200)
    assert.equal(res.headers.get("content-type"), "text/event-stream")
    const { events, reads } = await readSse(res)
    assert.equal(events.at(-1), "[DONE]")
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as { model: string; choices: Array<{ text: string }> })
    assert.equal(chunks.filter((c) => (c.choices[0]?.text ?? "") !== "").length, 8)
    assert.ok(chunks.every((c) => c.model === env.FRIENDLI_MODEL))
    assert.ok(reads >= 4, `the body came in ${reads} reads`)
  })

  it("sends the mock the completion request it builds: the prompt, max_tokens, its model, usage, the demo token", async () => {
    const res = await worker.fetch(streamRequest({ prompt: "What the mock sees", max_tokens: 3 }))
    await readSse(res)
    const seen = [...workerMock().requests]
      .reverse()
      .find((r) => (r.body as { prompt?: string }).prompt === "What the mock sees")
    assert.ok(seen, "the mock saw the request")
    assert.equal(seen.path, "/serverless/v1/completions")
    assert.equal(seen.headers.authorization, "Bearer demo-token")
    assert.deepEqual(seen.body, {
      prompt: "What the mock sees",
      max_tokens: 3,
      stream: true,
      stream_options: { include_usage: true },
      model: env.FRIENDLI_MODEL,
    })
  })

  it("answers a missing prompt, a body that is not JSON and a bad max_tokens with a 400 JSON error", async () => {
    for (const body of [
      { prompt: "" },
      "not json",
      { prompt: "Hi", max_tokens: 0 },
      { prompt: "Hi", max_tokens: 5000 },
    ]) {
      const res = await worker.fetch(streamRequest(body))
      assert.equal(res.status, 400, JSON.stringify(body))
      assert.equal(res.headers.get("content-type"), "application/json")
      const { error } = (await res.json()) as { error: { message: string; type: string } }
      assert.equal(error.type, "invalid_request_error")
      assert.match(error.message, /prompt|JSON|max_tokens/)
    }
  })

  it("answers an unknown path with 404 and a wrong method with 405, as JSON, with the methods it allows", async () => {
    const missing = await worker.fetch(new Request("http://worker/nowhere"))
    assert.equal(missing.status, 404)
    assert.match(((await missing.json()) as { error: { message: string } }).error.message, /POST \/api\/stream/)
    const wrong = await worker.fetch(new Request("http://worker/api/stream"))
    assert.equal(wrong.status, 405)
    assert.equal(wrong.headers.get("allow"), "POST")
    await wrong.body?.cancel()
    const page = await worker.fetch(new Request("http://worker/", { method: "POST", body: "x" }))
    assert.equal(page.status, 405)
    assert.equal(page.headers.get("allow"), "GET, HEAD")
    await page.body?.cancel()
  })
})

describe("the Worker with a token", () => {
  const withToken = (token: string) => ({
    FRIENDLI_TOKEN: token,
    FRIENDLI_BASE_URL: `${env.TOKEN_MOCK_URL}/serverless`,
    FRIENDLI_MODEL: "my-model",
  })

  it("proxies to FRIENDLI_BASE_URL with FRIENDLI_TOKEN and FRIENDLI_MODEL", async () => {
    const res = await app.fetch(streamRequest({ prompt: "Hello upstream", max_tokens: 2 }), withToken("flp_right"))
    assert.equal(res.status, 200)
    const { events } = await readSse(res)
    assert.equal(events.at(-1), "[DONE]")
    const records = (await (await fetch(`${env.TOKEN_MOCK_URL}/_mock/requests`)).json()) as Array<{
      headers: Record<string, string>
      body: { model: string; prompt: string }
    }>
    const seen = records.reverse().find((r) => r.body?.prompt === "Hello upstream")
    assert.equal(seen?.headers.authorization, "Bearer flp_right")
    assert.equal(seen?.body.model, "my-model")
  })

  it("answers a refused token with a 502 JSON error carrying the upstream's 401, before any stream", async () => {
    const res = await app.fetch(streamRequest({ prompt: "Hi" }), withToken("flp_wrong"))
    assert.equal(res.status, 502)
    assert.equal(res.headers.get("content-type"), "application/json")
    const { error } = (await res.json()) as { error: { message: string; code: unknown } }
    assert.equal(error.code, 401)
    assert.ok(error.message.length > 0)
  })
})
