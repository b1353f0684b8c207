// Embeddings and images through the Promise and Effect clients, end to end against the mock (its handler as the
// client's `fetch`; no socket, so it runs on every runtime).
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { createMockFriendli, type MockFriendli } from "@friendli-stream/testing"
import * as Effect from "effect/Effect"
import {
  type ClientOptions,
  FriendliClient,
  InvalidRequestError,
  makePromiseClient,
  ServerError,
  UnprocessableEntityError,
} from "../src/index.ts"

const MOCK = "http://mock.test"
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const pngHead = (base64: string): Array<number> =>
  Array.from(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).slice(0, 8))

const BASES = { serverless: `${MOCK}/serverless`, dedicated: `${MOCK}/dedicated`, container: MOCK } as const

const onMock = (deployment: keyof typeof BASES, options: ClientOptions = {}, mock = createMockFriendli()) => {
  const fetch = (input: string | URL | Request, init?: RequestInit) => mock.fetch(new Request(input, init))
  const layer = FriendliClient.fetchHttpClient(fetch as typeof globalThis.fetch)
  const client = makePromiseClient(layer, {
    token: "flp_test",
    deployment,
    baseURL: BASES[deployment],
    initialRetryDelayMs: 1,
    maxRetryDelayMs: 1,
    ...options,
  })
  return { client, mock, layer }
}

const rejects = async <E>(promise: Promise<unknown>, type: new (...args: never) => E): Promise<E> => {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof (type as unknown as abstract new () => unknown), `got ${String(error)}`)
    return error as E
  }
  assert.fail("expected a rejection")
}

const requests = (mock: MockFriendli) => mock.requests.filter((r) => r.api !== undefined)

describe("embeddings.create", () => {
  it("returns one vector per input from a dedicated endpoint, posted to /dedicated/v1/embeddings", async () => {
    const { client, mock } = onMock("dedicated")
    const answer = await client.embeddings.create({ model: "my-endpoint", input: ["a cat", "a dog"] })
    assert.equal(answer.object, "list")
    assert.equal(answer.data.length, 2)
    const [cat, dog] = answer.data.map((d) => d.embedding as ReadonlyArray<number>)
    assert.equal(cat!.length, 16)
    assert.notDeepEqual(cat, dog)
    assert.equal(mock.lastRequest()!.path, "/dedicated/v1/embeddings")
    assert.deepEqual(mock.lastRequest()!.body, { model: "my-endpoint", input: ["a cat", "a dog"] }, "no stream field")
    await client.close()
  })

  it("runs on the Effect client with the same answer", async () => {
    const { client, layer } = onMock("dedicated")
    const promised = await client.embeddings.create({ model: "e", input: "same text" })
    const effected = await Effect.runPromise(
      Effect.gen(function* () {
        const c = yield* FriendliClient.FriendliClient
        return yield* c.embeddings.create({ model: "e", input: "same text" })
      }).pipe(
        Effect.provide(FriendliClient.layer({ token: "flp_test", deployment: "dedicated", baseURL: BASES.dedicated })),
        Effect.provide(layer),
      ),
    )
    assert.deepEqual(effected.data, promised.data)
    await client.close()
  })

  it("fails with InvalidRequestError naming a dedicated endpoint on serverless and container clients, sending nothing", async () => {
    for (const deployment of ["serverless", "container"] as const) {
      const { client, mock } = onMock(deployment)
      const error = await rejects(client.embeddings.create({ model: "e", input: "x" }), InvalidRequestError)
      assert.match(error.message, /embeddings\.create\(\): embeddings need a dedicated endpoint/)
      assert.match(error.message, new RegExp(`this client's deployment is ${deployment}, so nothing was sent`))
      assert.equal(requests(mock).length, 0)
      await client.close()
    }
  })

  it("refuses a request the schema refuses before sending it, naming the field", async () => {
    const { client, mock } = onMock("dedicated")
    const error = await rejects(client.embeddings.create({ model: "e", input: 42 } as never), InvalidRequestError)
    assert.match(error.message, /input/)
    assert.equal(requests(mock).length, 0)
    await client.close()
  })

  it("reports the server's 422 as UnprocessableEntityError and retries a 503", async () => {
    const { client, mock } = onMock("dedicated")
    await rejects(client.embeddings.create({ model: "e" }), UnprocessableEntityError)
    mock.queueFaults("status:503")
    const answer = await client.embeddings.create({ model: "e", input: "after a 503" })
    assert.equal(answer.data.length, 1)
    assert.deepEqual(
      requests(mock).map((r) => r.status),
      [422, 503, 200],
    )
    await client.close()
  })

  it("gives up with ServerError when every attempt fails", async () => {
    const { client } = onMock("dedicated", { maxRetries: 1 }, createMockFriendli({ faults: "status:500" }))
    await rejects(client.embeddings.create({ model: "e", input: "x" }), ServerError)
    await client.close()
  })
})

describe("images.generate and images.edit", () => {
  it("returns a dedicated endpoint's data items (url by default, b64_json when asked)", async () => {
    const { client, mock } = onMock("dedicated")
    const byUrl = await client.images.generate({ model: "flux", prompt: "a red pixel", seed: 3 })
    assert.ok("data" in byUrl)
    const item = byUrl.data[0]!
    assert.ok("url" in item && item.url.startsWith("data:image/png;base64,"))
    assert.equal(item.seed, 3)
    assert.equal(mock.lastRequest()!.path, "/dedicated/v1/images/generations")
    const edited = await client.images.edit({
      model: "flux",
      prompt: "bluer",
      image: { image: item.url },
      response_format: "png",
    })
    assert.ok("data" in edited)
    const b64 = edited.data[0]!
    assert.ok("b64_json" in b64)
    assert.deepEqual(pngHead(b64.b64_json), PNG_SIGNATURE)
    assert.equal(mock.lastRequest()!.path, "/dedicated/v1/images/edits")
    await client.close()
  })

  it("returns a container's {image} from /v1/images/…, without a model", async () => {
    const { client, mock } = onMock("container")
    const generated = await client.images.generate({ prompt: "a cat" })
    assert.ok("image" in generated)
    assert.deepEqual(pngHead(generated.image), PNG_SIGNATURE)
    assert.equal(mock.lastRequest()!.path, "/v1/images/generations")
    const edited = await client.images.edit({ prompt: "a dog", image: [{ image: "https://example.com/cat.png" }] })
    assert.ok("image" in edited)
    assert.equal(mock.lastRequest()!.path, "/v1/images/edits")
    await client.close()
  })

  it("checks the request with its deployment's schema: a container has no url response_format", async () => {
    const { client, mock } = onMock("container")
    const error = await rejects(
      client.images.generate({ prompt: "p", response_format: "url" } as never),
      InvalidRequestError,
    )
    assert.match(error.message, /response_format/)
    assert.equal(requests(mock).length, 0)
    await client.close()
  })

  it("fails with InvalidRequestError naming dedicated endpoints and containers on a serverless client, sending nothing", async () => {
    const { client, mock } = onMock("serverless")
    for (const call of [
      () => client.images.generate({ model: "flux", prompt: "p" }),
      () => client.images.edit({ model: "flux", prompt: "p", image: { image: "data:," } }),
    ]) {
      const error = await rejects(call(), InvalidRequestError)
      assert.match(error.message, /images need a dedicated endpoint or a Friendli Container/)
    }
    assert.equal(requests(mock).length, 0)
    await client.close()
  })
})
