import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import {
  ClientConfigError,
  FriendliClient,
  InvalidRequestError,
  resolveClientOptions,
  type StreamHandle,
} from "../src/index.ts"
import { chatChunkWire, completionChunkWire, fakeServer, fakeServerClient, json, sse } from "./client-support.ts"

const chatRequest = { model: "m", messages: [{ role: "user" as const, content: "Say this is a test" }] }
const chatAnswer = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "This is a test." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 },
}
const chatStream = sse([
  chatChunkWire({ role: "assistant", content: "This is" }),
  chatChunkWire({ content: " a test." }, "stop"),
])

const textOf = async (
  handle: AsyncIterable<{
    readonly choices: ReadonlyArray<{ readonly delta: { readonly content?: string | null | undefined } }>
  }>,
) => {
  let text = ""
  for await (const chunk of handle) text += chunk.choices[0]?.delta?.content || ""
  return text
}

describe("the openai-shaped door of the Promise client", () => {
  it("streams from chat.completions.create({ stream: true }), with finalCompletion()", async () => {
    const { client, seen } = fakeServerClient([chatStream])
    const handle = await client.chat.completions.create({ ...chatRequest, stream: true })
    assert.equal(await textOf(handle), "This is a test.")
    assert.equal((await handle.finalCompletion()).choices[0]?.message.content, "This is a test.")
    assert.equal(seen[0]?.url, "http://fake.test/v1/chat/completions")
    assert.equal(seen[0]?.json?.stream, true)
    await client.close()
  })

  it("answers chat.completions.create without stream with the whole response", async () => {
    const { client, seen } = fakeServerClient([json(200, chatAnswer)])
    const response = await client.chat.completions.create(chatRequest)
    assert.equal(response.choices[0]?.message.content, "This is a test.")
    assert.equal(seen[0]?.json?.stream, false)
    await client.close()
  })

  it("streams from chat.create({ stream: true }) instead of returning a whole response", async () => {
    const { client, seen } = fakeServerClient([chatStream])
    const handle: StreamHandle<unknown, unknown> = client.chat.create({ ...chatRequest, stream: true })
    assert.equal(typeof handle.abort, "function")
    // @ts-expect-error: a stream: true request is typed as the stream, never as a Promise of a whole response
    const _whole: Promise<unknown> = client.chat.create({ ...chatRequest, stream: true })
    assert.ok(!("then" in _whole), "the stream handle is not a Promise")
    assert.equal(await textOf(client.chat.create({ ...chatRequest, stream: true })), "This is a test.")
    assert.equal(seen.at(-1)?.json?.stream, true)
    await client.close()
  })

  it("streams when stream is true only at run time", async () => {
    const { client } = fakeServerClient([chatStream])
    const streaming = [true, false][0] as boolean
    const answer = client.chat.completions.create({ ...chatRequest, stream: streaming })
    assert.ok(!(answer instanceof Promise), "a stream: true request answered with a Promise of a whole response")
    await client.close()
  })

  it("streams from completions.create({ stream: true }) and aborts it with abort()", async () => {
    const { client, seen } = fakeServerClient([
      sse([completionChunkWire("Hello"), completionChunkWire(" there", "stop")]),
    ])
    const handle = client.completions.create({ model: "m", prompt: "Hi", stream: true })
    const texts: Array<string> = []
    for await (const chunk of handle) texts.push(chunk.choices[0]?.text ?? "")
    assert.deepEqual(texts, ["Hello", " there"])
    assert.equal(seen[0]?.url, "http://fake.test/v1/completions")
    handle.abort()
    assert.equal(handle.aborted, true)
    await client.close()
  })

  it("refuses stream: true in the Effect client's create, unsent, and types it as an error", async () => {
    const server = fakeServer(json(200, chatAnswer))
    const layer = Layer.provide(FriendliClient.layer({ token: "t", baseURL: "http://fake.test" }), server.layer)
    const failure = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* FriendliClient.FriendliClient
        // @ts-expect-error: stream: true asks for a stream, which the Effect create cannot return
        return yield* Effect.flip(client.chat.create({ ...chatRequest, stream: true }))
      }).pipe(Effect.provide(layer)),
    )
    assert.ok(failure instanceof InvalidRequestError, String(failure))
    assert.match(failure.message, /call stream\(request\) instead/)
    assert.equal(server.seen.length, 0)
  })
})

describe("the openai SDK's constructor options", () => {
  it("takes the token as apiKey and sends it as the bearer token", async () => {
    const { client, seen } = fakeServerClient([json(200, chatAnswer)], { token: undefined, apiKey: "flp_key" })
    await client.chat.completions.create(chatRequest)
    assert.equal(seen[0]?.headers.authorization, "Bearer flp_key")
    const resolved = resolveClientOptions({ apiKey: "flp_key" })
    assert.equal(resolved.token === undefined ? undefined : Redacted.value(resolved.token), "flp_key")
    await client.close()
  })

  it("refuses token and apiKey together, naming the fix", () => {
    assert.throws(
      () => resolveClientOptions({ token: "a", apiKey: "b" }),
      (e: unknown) => e instanceof ClientConfigError && e.option === "apiKey" && /pass one of them/.test(e.message),
    )
  })

  it("reads a baseURL ending in /v1 as the openai SDK does", async () => {
    assert.equal(
      resolveClientOptions({ token: "t", baseURL: "https://api.friendli.ai/serverless/v1" }).baseURL,
      "https://api.friendli.ai/serverless",
    )
    assert.equal(
      resolveClientOptions({ token: "t", baseURL: "http://127.0.0.1:8000/v1/" }).baseURL,
      "http://127.0.0.1:8000",
    )
    const { client, seen } = fakeServerClient([chatStream], { baseURL: "http://fake.test/serverless/v1" })
    await textOf(await client.chat.completions.create({ ...chatRequest, stream: true }))
    assert.equal(seen[0]?.url, "http://fake.test/serverless/v1/chat/completions")
    await client.close()
  })

  it("refuses at construction a baseURL that cannot work, naming the one to use", () => {
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      ["api.friendli.ai/serverless/v1", /absolute http\(s\) URL/],
      ["ftp://example.test", /http or https/],
      ["https://example.test/v1?api-version=1", /query string or fragment.*use "https:\/\/example\.test\/v1"/],
      ["https://example.test/v1#x", /query string or fragment/],
      [
        "https://api.friendli.ai/serverless/v1/chat/completions",
        /not an endpoint.*use "https:\/\/api\.friendli\.ai\/serverless\/v1"/,
      ],
      ["http://127.0.0.1:8000/completions", /not an endpoint.*use "http:\/\/127\.0\.0\.1:8000\/v1"/],
    ]
    for (const [baseURL, message] of cases) {
      assert.throws(
        () => resolveClientOptions({ token: "t", baseURL }),
        (e: unknown) =>
          e instanceof ClientConfigError &&
          e.reason === "InvalidOption" &&
          e.option === "baseURL" &&
          message.test(e.message),
        baseURL,
      )
    }
  })
})
