// StreamHandle.toResponse: the stream as the answer to an HTTP request, against a fake server (a `fetch` function).
import assert from "node:assert/strict"
import { ApiError, decodeCompletionStream, SseResponse } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { createMockFriendli } from "@friendli-stream/testing"
import { type ClientOptions, FriendliClient, makePromiseClient } from "../src/index.ts"
import { type Answer, BASE, completionChunkWire as chunk, fakeServer, json, sse } from "./client-support.ts"

const request = { model: "m", prompt: "Hello", max_tokens: 5 }
const options = { token: "t", baseURL: BASE, maxRetries: 0 }

interface ErrorBody {
  readonly error: { readonly message: string; readonly type: string; readonly code: unknown }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What `toResponse()` answers for one upstream answer: its status, its headers, its body read to the end. */
const answerTo = async (answer: Answer, extra: ClientOptions = {}, body: typeof request = request) => {
  const server = fakeServer(answer)
  const client = makePromiseClient(server.layer, { ...options, ...extra })
  try {
    const response = await client.completions.stream(body).toResponse()
    const text = await response.text()
    const isJson = response.headers.get("content-type") === "application/json"
    const error = isJson ? (JSON.parse(text) as ErrorBody).error : undefined
    return { status: response.status, headers: response.headers, text, error, seen: server.seen }
  } finally {
    await client.close()
  }
}

/** An upstream `200 text/event-stream` whose body the test writes; `cancelled` once the client let go of it. */
const liveUpstream = () => {
  let opened: (controller: ReadableStreamDefaultController<Uint8Array>) => void = () => {}
  const controller = new Promise<ReadableStreamDefaultController<Uint8Array>>((resolve) => {
    opened = resolve
  })
  const state = { cancelled: false }
  const answer: Answer = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start: opened,
        cancel: () => {
          state.cancelled = true
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    )
  /** Sends `text` once the request has come. */
  const send = async (text: string) => (await controller).enqueue(new TextEncoder().encode(text))
  return { answer, send, end: async () => (await controller).close(), state }
}

const event = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`

const eventually = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 100 && !check(); i++) await delay(10)
  assert.ok(check(), what)
}

describe("StreamHandle.toResponse", () => {
  it("answers 200 text/event-stream once the first chunk is there, and passes the rest on as it arrives", async () => {
    const upstream = liveUpstream()
    const server = fakeServer(upstream.answer)
    const client = makePromiseClient(server.layer, options)
    const answered = client.completions.stream(request).toResponse()
    assert.equal(await Promise.race([answered.then(() => "answered"), delay(50).then(() => "waiting")]), "waiting")
    await upstream.send(event(chunk("a")))
    const response = await answered
    assert.equal(response.status, 200)
    assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8")
    assert.equal(response.headers.get("cache-control"), "no-cache, no-transform")
    assert.equal(response.headers.get("x-accel-buffering"), "no")
    const reader = response.body!.getReader()
    const first = await reader.read()
    assert.equal(
      new TextDecoder().decode(first.value),
      event(chunk("a")),
      "the first chunk, before the upstream sent more",
    )
    await upstream.send(`${event(chunk("b"))}${event(chunk("", "stop"))}data: [DONE]\n\n`)
    await upstream.end()
    let rest = ""
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      rest += new TextDecoder().decode(value)
    }
    assert.ok(rest.endsWith("data: [DONE]\n\n"))
    const texts: Array<string> = []
    const whole = event(chunk("a")) + rest
    for await (const c of decodeCompletionStream(new Response(whole).body!)) texts.push(c.choices[0]?.text ?? "")
    assert.deepEqual(texts, ["a", "b", ""])
    await client.close()
  })

  it("passes on the upstream's 400, 404, 422 and 429 as JSON errors, with 429's Retry-After", async () => {
    const passedOn = [
      [400, "BadRequestError"],
      [404, "NotFoundError"],
      [422, "UnprocessableEntityError"],
      [429, "RateLimitError"],
    ] as const
    for (const [upstream, type] of passedOn) {
      const body = { error: { message: `refused with ${upstream}`, type: "x", code: null } }
      const { status, headers, error } = await answerTo(
        json(upstream, body, upstream === 429 ? { "retry-after": "7" } : {}),
      )
      assert.equal(status, upstream)
      assert.equal(headers.get("content-type"), "application/json")
      assert.equal(headers.get("retry-after"), upstream === 429 ? "7" : null)
      assert.equal(error?.type, type)
      assert.equal(error?.code, upstream)
      assert.match(error?.message ?? "", new RegExp(`refused with ${upstream}`))
    }
  })

  it("answers 502 for the server's credentials refused (401, 403), a 5xx, another status, a connection error", async () => {
    const upstreamFaults = [
      [401, "AuthenticationError"],
      [403, "PermissionDeniedError"],
      [500, "ServerError"],
      [503, "ServerError"],
      [409, "UnexpectedStatusError"],
    ] as const
    for (const [upstream, type] of upstreamFaults) {
      const { status, headers, error } = await answerTo(json(upstream, { message: "no" }, { "retry-after": "3" }))
      assert.equal(status, 502, String(upstream))
      assert.equal(headers.get("retry-after"), null)
      assert.equal(error?.type, type)
      assert.equal(error?.code, upstream, "the upstream status is in the body")
    }
    const refused: Answer = () => {
      throw new TypeError("connection refused")
    }
    const { status, error } = await answerTo(refused)
    assert.equal(status, 502)
    assert.equal(error?.type, "ConnectionError")
    assert.match(error?.message ?? "", /connection refused/)
  })

  it("answers 504 for a timeout, and 400 for a request that fails the schema (never sent)", async () => {
    const silent = liveUpstream()
    const timedOut = await answerTo(silent.answer, { idleTimeoutMs: 100 })
    assert.equal(timedOut.status, 504)
    assert.equal(timedOut.error?.type, "TimeoutError")
    assert.equal(silent.state.cancelled, true)

    const invalid = await answerTo(sse([chunk("a")]), {}, { ...request, max_tokens: 1.5 })
    assert.equal(invalid.status, 400)
    assert.equal(invalid.error?.type, "InvalidRequestError")
    assert.equal(invalid.seen.length, 0)
  })

  it("passes on an in-stream error's 400, 404, 422 or 429 before the first chunk; other stream failures are 502", async () => {
    const inStream = (code: unknown): Answer => {
      const error = { message: "prompt too long", type: "invalid_request_error", code }
      const body = `event: error\ndata: ${JSON.stringify({ error })}\n\n`
      return () => new Response(body, { headers: { "content-type": "text/event-stream" } })
    }
    const refused = await answerTo(inStream(422))
    assert.equal(refused.status, 422)
    assert.equal(refused.error?.type, "invalid_request_error")
    assert.equal(refused.error?.code, 422)
    assert.match(refused.error?.message ?? "", /prompt too long/)
    assert.equal((await answerTo(inStream("context_length_exceeded"))).status, 502)
    const truncated = await answerTo(sse([], false))
    assert.equal(truncated.status, 502)
    assert.equal(truncated.error?.type, "StreamTruncated")
  })

  it("ends the 200 stream with event: error for a failure after the first chunk", async () => {
    const failing: Answer = () =>
      new Response(`${event(chunk("a"))}event: error\ndata: {"error":{"message":"overloaded","code":503}}\n\n`, {
        headers: { "content-type": "text/event-stream" },
      })
    const { status, text } = await answerTo(failing)
    assert.equal(status, 200)
    assert.match(text, /\nevent: error\ndata: .*overloaded/)
    const items: Array<unknown> = []
    let failure: unknown
    try {
      for await (const c of decodeCompletionStream(new Response(text).body!)) items.push(c)
    } catch (e) {
      failure = e
    }
    assert.equal(items.length, 1)
    assert.ok(failure instanceof ApiError, String(failure))
    assert.equal(failure.code, 503)
  })

  it("aborts the request when the response's body is cancelled", async () => {
    const upstream = liveUpstream()
    const server = fakeServer(upstream.answer)
    const client = makePromiseClient(server.layer, options)
    const handle = client.completions.stream(request)
    const answered = handle.toResponse()
    await upstream.send(event(chunk("a")))
    const reader = (await answered).body!.getReader()
    assert.equal(new TextDecoder().decode((await reader.read()).value), event(chunk("a")))
    assert.equal(upstream.state.cancelled, false)
    await reader.cancel()
    await eventually(() => upstream.state.cancelled, "the upstream body was cancelled")
    assert.equal(handle.aborted, true)
    await client.close()
  })

  it("adds the caller's headers to the stream and to a JSON error, and reads only once", async () => {
    const cors = { "access-control-allow-origin": "*", "cache-control": "no-store" }
    const server = fakeServer(sse([chunk("a")]), json(404, { detail: "Not Found" }))
    const client = makePromiseClient(server.layer, options)
    const handle = client.completions.stream(request)
    const ok = await handle.toResponse({ headers: cors })
    assert.equal(ok.headers.get("access-control-allow-origin"), "*")
    assert.equal(ok.headers.get("cache-control"), "no-store")
    assert.equal(ok.headers.get("content-type"), "text/event-stream; charset=utf-8")
    await ok.text()
    await assert.rejects(() => handle.toResponse(), /already consumed/)
    const missing = await client.completions.stream(request).toResponse({ headers: new Headers(cors) })
    assert.equal(missing.status, 404)
    assert.equal(missing.headers.get("access-control-allow-origin"), "*")
    assert.equal(missing.headers.get("content-type"), "application/json")
    await missing.body?.cancel()
    await client.close()
  })

  it("sends keep-alive comments inside a 200 while the first token is late (the mock's delay-first), then the same chunks", async () => {
    const mock = createMockFriendli({ faults: "delay-first:400" })
    const client = makePromiseClient(
      FriendliClient.fetchHttpClient(((input: string | URL | Request, init?: RequestInit) =>
        mock.fetch(new Request(input, init))) as typeof fetch),
      { ...options, baseURL: "http://mock.test/serverless" },
    )
    try {
      const response = await client.completions.stream({ ...request, stream: true }).toResponse({ keepAliveMs: 20 })
      assert.equal(response.status, 200, response.status === 200 ? "" : await response.text())
      assert.equal(response.headers.get("x-accel-buffering"), "no")
      const reader = response.body!.getReader()
      // the first bytes out are a keep-alive: the mock has not answered yet
      assert.equal(new TextDecoder().decode((await reader.read()).value), SseResponse.KEEP_ALIVE)
      let text = ""
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        text += new TextDecoder().decode(value)
      }
      assert.ok(text.endsWith("data: [DONE]\n\n"))
      const texts: Array<string> = []
      for await (const c of decodeCompletionStream(new Response(text).body!)) texts.push(c.choices[0]?.text ?? "")
      assert.equal(texts.filter((t) => t !== "").length, 5, `the chunks: ${JSON.stringify(texts)}`)
    } finally {
      await client.close()
    }
  })
})
