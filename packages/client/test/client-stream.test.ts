import assert from "node:assert/strict"
import { ApiError, decodeCompletionStream } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import {
  ClientConfigError,
  FriendliClient,
  InvalidRequestError,
  makePromiseClient,
  RateLimitError,
  resolveClientOptions,
  TimeoutError,
} from "../src/index.ts"
import { BASE, completionChunkWire as chunk, fakeServer, json, sse } from "./client-support.ts"

const request = { model: "m", prompt: "Hello", max_tokens: 5 }
const options = { token: "t", baseURL: BASE, initialRetryDelayMs: 1, maxRetryDelayMs: 2 }

const runStream = <A, E>(
  layer: Layer.Layer<FriendliClient.FriendliClient, unknown>,
  f: (c: FriendliClient.FriendliClient) => Stream.Stream<A, E>,
) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const client = yield* FriendliClient.FriendliClient
      const items: Array<A> = []
      const result = yield* Effect.result(Stream.runForEach(f(client), (a) => Effect.sync(() => items.push(a))))
      return { items, error: Result.isFailure(result) ? result.failure : undefined }
    }).pipe(Effect.provide(layer)),
  )

describe("client options", () => {
  it("takes the token and team from the options before the environment", () => {
    const resolved = resolveClientOptions({ token: "a", team: "b", deployment: "dedicated" })
    assert.equal(resolved.token === undefined ? undefined : Redacted.value(resolved.token), "a")
    assert.equal(resolved.team, "b")
    assert.equal(resolved.baseURL, "https://api.friendli.ai/dedicated")
    assert.equal(resolved.maxRetries, 2)
  })

  it("keeps the token out of the options' JSON, their string form and their inspection", async () => {
    const secret = "flp_never-print-me"
    const resolved = resolveClientOptions({ token: secret, deployment: "dedicated" })
    assert.ok(!JSON.stringify(resolved).includes(secret), JSON.stringify(resolved))
    assert.ok(!String(resolved.token).includes(secret), String(resolved.token))
    const { inspect } = await import("node:util")
    assert.ok(!inspect(resolved, { depth: 10 }).includes(secret), inspect(resolved, { depth: 10 }))
  })

  it("reads FRIENDLI_TOKEN and FRIENDLI_TEAM from the environment", () => {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    if (env === undefined) return
    const saved = { token: env.FRIENDLI_TOKEN, team: env.FRIENDLI_TEAM }
    try {
      env.FRIENDLI_TOKEN = "from-env"
      env.FRIENDLI_TEAM = "team-env"
      const resolved = resolveClientOptions({})
      assert.equal(resolved.token === undefined ? undefined : Redacted.value(resolved.token), "from-env")
      assert.equal(resolved.team, "team-env")
      delete env.FRIENDLI_TOKEN
      assert.throws(
        () => resolveClientOptions({ deployment: "serverless" }),
        (e: unknown) => e instanceof ClientConfigError && e.reason === "MissingToken",
      )
      assert.equal(resolveClientOptions({ deployment: "container" }).token, undefined)
      assert.equal(resolveClientOptions({ baseURL: "http://127.0.0.1:1" }).token, undefined)
    } finally {
      if (saved.token === undefined) delete env.FRIENDLI_TOKEN
      else env.FRIENDLI_TOKEN = saved.token
      if (saved.team === undefined) delete env.FRIENDLI_TEAM
      else env.FRIENDLI_TEAM = saved.team
    }
  })

  it("refuses options that cannot work", () => {
    assert.throws(() => resolveClientOptions({ token: "t", maxRetries: -1 }), /maxRetries/)
    assert.throws(() => resolveClientOptions({ token: "t", baseURL: "ftp://x" }), /http/)
    assert.throws(() => resolveClientOptions({ token: "t", deployment: "cloud" as never }), /deployment/)
  })
})

describe("requests", () => {
  it("posts the request with stream: true, the token, the team and the accept header", async () => {
    const server = fakeServer(sse([chunk("Hi"), chunk("", "stop")]))
    const layer = FriendliClient.layer({ ...options, team: "my-team" }).pipe(Layer.provide(server.layer))
    const { items, error } = await runStream(layer, (c) => c.completions.stream({ ...request, stream: false }))
    assert.equal(error, undefined)
    assert.equal(items.length, 2)
    const [seen] = server.seen
    assert.equal(seen?.url, `${BASE}/v1/completions`)
    assert.equal(seen?.headers.authorization, "Bearer t")
    assert.equal(seen?.headers["x-friendli-team"], "my-team")
    assert.equal(seen?.headers.accept, "text/event-stream")
    assert.equal(seen?.json?.stream, true)
  })

  it("refuses a request that fails the schema without sending it", async () => {
    const server = fakeServer(sse([]))
    const layer = FriendliClient.layer(options).pipe(Layer.provide(server.layer))
    const { error } = await runStream(layer, (c) =>
      c.chat.stream({ model: "m", messages: [{ role: "robot", content: "x" }] } as never),
    )
    assert.ok(error instanceof InvalidRequestError)
    assert.match(error.explanation, /robot/)
    assert.match(error.explanation, /^messages\[0\]: /m)
    assert.equal(server.seen.length, 0)
  })

  it("explains a refused request with one line per wrong field, from the union member the request meant", async () => {
    const server = fakeServer(sse([]))
    const layer = FriendliClient.layer(options).pipe(Layer.provide(server.layer))
    const { error } = await runStream(layer, (c) =>
      c.completions.stream({ model: "m", prompt: "Hi", top_p: 1.5, frequency_penalty: -3 }),
    )
    assert.ok(error instanceof InvalidRequestError)
    assert.deepEqual(error.explanation.split("\n").sort(), [
      "frequency_penalty: Expected a value greater than or equal to -2, got -3",
      "top_p: Expected a value less than or equal to 1, got 1.5",
    ])
    assert.equal(server.seen.length, 0)
  })

  it("sends create() with stream: false and no stream_options, and validates the answer", async () => {
    const whole = {
      id: "cmpl-1",
      object: "text_completion",
      created: 1,
      choices: [{ index: 0, text: "Hi", seed: 7, tokens: [1], finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    }
    const server = fakeServer(json(200, whole))
    const client = makePromiseClient(server.layer, options)
    const response = await client.completions.create({ ...request, stream_options: { include_usage: true } })
    assert.equal(response.choices[0]?.text, "Hi")
    assert.equal(server.seen[0]?.json?.stream, false)
    assert.equal("stream_options" in (server.seen[0]?.json ?? {}), false)
    await client.close()
  })
})

describe("retries", () => {
  it("waits exactly the Retry-After of a 429 on the clock before retrying", async () => {
    const server = fakeServer(
      json(
        429,
        { error: { message: "slow down", type: "rate_limit_error", code: "rate_limit_exceeded" } },
        { "retry-after": "5" },
      ),
      sse([chunk("ok"), chunk("", "stop")]),
    )
    const layer = FriendliClient.layer(options).pipe(Layer.provide(server.layer))
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* FriendliClient.FriendliClient
        const fiber = yield* Effect.forkChild(Stream.runCollect(client.completions.stream(request)))
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
        const first = server.seen.length
        yield* TestClock.adjust("4999 millis")
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
        const before = server.seen.length
        yield* TestClock.adjust("1 millis")
        const chunks = yield* Fiber.join(fiber)
        return { first, before, after: server.seen.length, chunks: chunks.length }
      }).pipe(Effect.provide(layer), Effect.provide(TestClock.layer())),
    )
    assert.deepEqual(result, { first: 1, before: 1, after: 2, chunks: 2 })
  })

  it("ends in the last error when the retries run out", async () => {
    const server = fakeServer(json(429, { message: "no" }, { "retry-after": "0" }))
    const layer = FriendliClient.layer({ ...options, maxRetries: 3 }).pipe(Layer.provide(server.layer))
    const { error } = await runStream(layer, (c) => c.completions.stream(request))
    assert.ok(error instanceof RateLimitError)
    assert.equal(server.seen.length, 4)
  })

  it("retries an in-stream error before the first chunk, but not after one", async () => {
    const failing = () =>
      new Response('event: error\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n', {
        headers: { "content-type": "text/event-stream" },
      })
    const before = fakeServer(failing, sse([chunk("ok"), chunk("", "stop")]))
    const r1 = await runStream(FriendliClient.layer(options).pipe(Layer.provide(before.layer)), (c) =>
      c.completions.stream(request),
    )
    assert.equal(r1.error, undefined)
    assert.equal(before.seen.length, 2)

    const late = () =>
      new Response(
        `data: ${JSON.stringify(chunk("a"))}\n\nevent: error\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n`,
        { headers: { "content-type": "text/event-stream" } },
      )
    const after = fakeServer(late, sse([chunk("ok")]))
    const r2 = await runStream(FriendliClient.layer(options).pipe(Layer.provide(after.layer)), (c) =>
      c.completions.stream(request),
    )
    assert.equal(r2.items.length, 1)
    assert.ok(r2.error instanceof ApiError)
    assert.equal(after.seen.length, 1)
  })
})

describe("timeouts", () => {
  it("fires the idle timeout on a server that only sends keep-alive comments", async () => {
    let timer: ReturnType<typeof setInterval> | undefined
    let cancelled = false
    const pings = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(chunk("a"))}\n\n`))
            timer = setInterval(() => controller.enqueue(new TextEncoder().encode(": ping\n\n")), 10)
          },
          cancel() {
            cancelled = true
            clearInterval(timer)
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      )
    const server = fakeServer(pings)
    const client = makePromiseClient(server.layer, { ...options, idleTimeoutMs: 150 })
    const items: Array<unknown> = []
    let error: unknown
    const started = Date.now()
    try {
      for await (const c of client.completions.stream(request)) items.push(c)
    } catch (e) {
      error = e
    }
    clearInterval(timer)
    assert.equal(items.length, 1)
    assert.ok(error instanceof TimeoutError)
    assert.equal(error.reason, "Idle")
    assert.ok(Date.now() - started >= 150)
    assert.equal(cancelled, true)
    await client.close()
  })
})

describe("the Promise handle", () => {
  it("re-encodes the stream as SSE, and a failure as an error event that decodes to ApiError", async () => {
    const server = fakeServer(
      sse([chunk("a"), chunk("b"), chunk("", "stop")]),
      json(400, { error: { message: "bad", type: "invalid_request_error", code: "bad" } }),
    )
    const client = makePromiseClient(server.layer, { ...options, maxRetries: 0 })
    const ok = await new Response(client.completions.stream(request).toReadableStream() as never).text()
    assert.ok(ok.endsWith("data: [DONE]\n\n"))
    const chunks: Array<string> = []
    for await (const c of decodeCompletionStream(new Response(ok).body!)) chunks.push(c.choices[0]?.text ?? "")
    assert.deepEqual(chunks, ["a", "b", ""])

    const failed = await new Response(client.completions.stream(request).toReadableStream() as never).text()
    assert.match(failed, /^event: error\ndata: /)
    const result = { error: undefined as unknown }
    try {
      for await (const _ of decodeCompletionStream(new Response(failed).body!)) {
        // nothing before the error
      }
    } catch (e) {
      result.error = e
    }
    assert.ok(result.error instanceof ApiError)
    assert.match((result.error as ApiError).message, /bad/)
    await client.close()
  })

  it("folds the stream with finalCompletion(), usage included", async () => {
    const usage = { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 }
    const server = fakeServer(sse([chunk("a"), chunk("b", "stop"), chunk("", "none", usage)]))
    const client = makePromiseClient(server.layer, options)
    const completion = await client.completions.stream(request).finalCompletion()
    assert.equal(completion.choices[0]?.text, "ab")
    assert.equal(completion.choices[0]?.finish_reason, "stop")
    assert.deepEqual(completion.usage, usage)
    await client.close()
  })

  it("refuses to be read twice", async () => {
    const server = fakeServer(sse([chunk("a")]))
    const client = makePromiseClient(server.layer, options)
    const stream = client.completions.stream(request)
    await stream.finalCompletion()
    assert.throws(() => stream.toReadableStream(), /already consumed/)
    await client.close()
  })
})
