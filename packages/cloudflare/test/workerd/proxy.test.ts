// proxyCompletionStream / proxyChatCompletionStream in workerd: the browser's side through `exports.default` (workerd's
// HTTP pipeline into test/workerd/worker.ts), the upstream a mock in Node on a real socket (test/workerd/setup.ts).
import assert from "node:assert/strict"
import { MODEL, remoteMock } from "@friendli-stream/adapter-suite"
import { describe, it } from "@friendli-stream/test-harness"
import { collect, readBody } from "@friendli-stream/test-harness/fixtures"
import { ApiError, decodeChatCompletionStream, decodeCompletionStream, proxyCompletionStream } from "../../src/index.ts"
import { env, worker } from "./env.ts"

const mock = remoteMock(env.PROXY_MOCK_URL)

const post = (body: unknown, path = "/"): Promise<Response> =>
  worker.fetch(
    new Request(`http://worker${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  )

const completion = (extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  prompt: "Proxy me",
  max_tokens: 8,
  ...extra,
})

const lastRecord = async () => {
  const records = (await mock.requests()).filter((r) => r.api !== undefined)
  return records[records.length - 1]!
}

/** Reads one event (up to its blank line) off a reader, with what was read past it. */
const readEvent = async (reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> => {
  const decoder = new TextDecoder()
  let text = ""
  while (!text.includes("\n\n")) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  return text
}

describe("proxyCompletionStream", () => {
  it("answers with server-sent events that decode to the completion the upstream answers without streaming", async () => {
    const response = await post(completion({ stream_options: { include_usage: true } }))
    assert.equal(response.status, 200)
    assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8")
    const { text } = await readBody(response)
    assert.ok(text.endsWith("data: [DONE]\n\n"))
    const { items, error } = await collect(decodeCompletionStream(new Response(text).body!))
    assert.equal(error, undefined)
    assert.ok(items.at(-1)?.usage != null)
    const record = await lastRecord()
    assert.equal(record.headers.authorization, `Bearer ${env.FRIENDLI_TOKEN}`)
    const whole = (await (
      await fetch(`${env.FRIENDLI_BASE_URL}/v1/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.FRIENDLI_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(completion()),
      })
    ).json()) as { choices: Array<{ text: string }> }
    assert.equal(items.map((c) => c.choices[0]?.text ?? "").join(""), whole.choices[0]?.text)
  })

  it("passes the first token on before the upstream has finished (no buffering)", async () => {
    await mock.queueFaults("delay:150")
    const started = Date.now()
    const response = await post(completion({ max_tokens: 8, ignore_eos: true }))
    const reader = response.body!.getReader()
    const first = await readEvent(reader)
    const firstAt = Date.now()
    assert.match(first, /^data: \{"id"/)
    const upstream = await lastRecord()
    assert.equal(upstream.outcome, "pending", "the upstream is still streaming when the first event arrives")
    assert.equal(upstream.completedAt, undefined)
    let rest = ""
    const decoder = new TextDecoder()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      rest += decoder.decode(value, { stream: true })
    }
    const endAt = Date.now()
    assert.ok(rest.endsWith("data: [DONE]\n\n"))
    const settled = await mock.waitForSettled(upstream.id)
    assert.equal(settled.outcome, "completed")
    // 8 tokens, a finish chunk and [DONE], 150 ms apart: the first event came about 1.3 s before the end
    assert.ok(endAt - firstAt >= 800, `first event ${firstAt - started} ms in, the end ${endAt - firstAt} ms after it`)
  })

  it("ends with event: error after the chunks before an in-stream failure", async () => {
    await mock.queueFaults("error:2")
    const response = await post(completion())
    assert.equal(response.status, 200)
    const { items, error } = await collect(decodeCompletionStream(response.body!))
    assert.equal(items.length, 2)
    assert.ok(error instanceof ApiError, String(error))
  })

  it("answers a failure before the first chunk as a JSON error whose status says whose fault it was", async () => {
    const notFound = await post(completion({ model: "no-such-model" }))
    assert.equal(notFound.status, 404)
    const body = (await notFound.json()) as { error: { message: string; type: string; code: number } }
    assert.equal(body.error.type, "NotFoundError")
    assert.match(body.error.message, /no-such-model/)

    // The upstream failing is not the browser's fault: a bad gateway, with the upstream's status in the body.
    await mock.queueFaults("status:503", "status:503", "status:503")
    const unavailable = await post(completion())
    assert.equal(unavailable.status, 502)
    const failed = (await unavailable.json()) as { error: { type: string; code: number } }
    assert.deepEqual([failed.error.type, failed.error.code], ["ServerError", 503])
    const refused = await proxyCompletionStream(
      new Request("http://worker/", { method: "POST", body: JSON.stringify(completion()) }),
      { ...env, FRIENDLI_TOKEN: "not-the-token" },
    )
    assert.equal(refused.status, 502, "the Worker's own token refused (401) is not the browser's fault")
    assert.equal(((await refused.json()) as { error: { code: number } }).error.code, 401)

    const invalid = await post(completion({ max_tokens: "twelve" }))
    assert.equal(invalid.status, 400)
    assert.equal(((await invalid.json()) as { error: { type: string } }).error.type, "InvalidRequestError")
  })

  it("refuses a request that is not a POST of a JSON object", async () => {
    const get = await worker.fetch(new Request("http://worker/"))
    assert.equal(get.status, 400)
    assert.equal((await post([1, 2])).status, 400)
    const notJson = await worker.fetch(new Request("http://worker/", { method: "POST", body: "{" }))
    assert.equal(notJson.status, 400)
  })

  // (Not "no token": with nodejs_compat, process.env holds the bindings, and the client falls back to it.)
  it("answers 500 with the ClientConfigError when the Worker's bindings cannot make a client", async () => {
    const response = await proxyCompletionStream(
      new Request("http://worker/", { method: "POST", body: JSON.stringify(completion()) }),
      { ...env, FRIENDLI_DEPLOYMENT: "on-premises" },
    )
    assert.equal(response.status, 500)
    const body = (await response.json()) as { error: { message: string; type: string } }
    assert.equal(body.error.type, "ClientConfigError")
    assert.match(body.error.message, /deployment must be/)
  })

  it("uses FRIENDLI_MODEL whatever model the browser asked for", async () => {
    const response = await proxyCompletionStream(
      new Request("http://worker/", { method: "POST", body: JSON.stringify(completion({ model: "other" })) }),
      { ...env, FRIENDLI_MODEL: MODEL },
    )
    assert.equal(response.status, 200)
    await response.text()
    assert.equal(((await lastRecord()).body as { model: string }).model, MODEL)
  })

  it("aborts the upstream request when the browser goes away", async () => {
    await mock.queueFaults("delay:50")
    const response = await proxyCompletionStream(
      new Request("http://worker/", { method: "POST", body: JSON.stringify(completion({ max_tokens: 40 })) }),
      env,
    )
    const reader = response.body!.getReader()
    await readEvent(reader)
    const cancelledAt = Date.now()
    await reader.cancel()
    const record = await mock.waitForDisconnect((await lastRecord()).id)
    assert.equal(record.outcome, "disconnected")
    assert.ok(record.disconnectedAt! - cancelledAt < 200, `${record.disconnectedAt! - cancelledAt} ms`)
  })
})

describe("proxyChatCompletionStream", () => {
  it("streams a chat completion as server-sent events", async () => {
    const response = await post({ model: MODEL, messages: [{ role: "user", content: "Hi" }], max_tokens: 5 }, "/chat")
    assert.equal(response.status, 200)
    const { items, error } = await collect(decodeChatCompletionStream(response.body!))
    assert.equal(error, undefined)
    assert.ok(items.length > 1)
    assert.equal((await lastRecord()).api, "chat")
  })
})
