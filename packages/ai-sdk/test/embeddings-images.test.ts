// friendli.embeddingModel and friendli.imageModel through the real `ai` package's `embed`, `embedMany` and
// `generateImage`, against the mock over HTTP: the vectors and images the mock answered, the requests it received,
// warnings for what Friendli cannot do, typed errors on a deployment without the API, HTTP errors as APICallErrors.
import assert from "node:assert/strict"
import { APICallError } from "@ai-sdk/provider"
import { InvalidRequestError } from "@friendli-stream/client"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { embed, embedMany, generateImage } from "ai"
import { createFriendli, type FriendliProviderSettings } from "../src/index.ts"
import { type Harness, startMock, TOKEN } from "./support.ts"

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

/** A provider on the mock's dedicated API (`faults` in the base URL), or on its container API. */
const onMock = (deployment: "dedicated" | "container", faults?: string, settings: FriendliProviderSettings = {}) =>
  createFriendli({
    token: TOKEN,
    deployment,
    baseURL: `${h.server.url}${faults === undefined ? "" : `/_fault/${faults}`}${deployment === "dedicated" ? "/dedicated" : ""}`,
    ...settings,
  })

/** The vectors the mock answers for these inputs, asked without the provider. */
const mockVectors = async (input: ReadonlyArray<string>): Promise<Array<Array<number>>> => {
  const response = await fetch(`${h.server.url}/dedicated/v1/embeddings`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "e", input }),
  })
  assert.equal(response.status, 200)
  return ((await response.json()) as { data: Array<{ embedding: Array<number> }> }).data.map((d) => d.embedding)
}

describe("embeddingModel", () => {
  it("embed returns the vector the dedicated endpoint answered, with its token usage", async () => {
    const result = await embed({ model: onMock("dedicated").embeddingModel("my-endpoint"), value: "a cat" })
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/dedicated/v1/embeddings")
    assert.deepEqual(record.body, { model: "my-endpoint", input: ["a cat"] })
    assert.deepEqual(result.embedding, (await mockVectors(["a cat"]))[0])
    assert.ok(result.usage.tokens > 0)
  })

  it("embedMany sends every value in one request and returns the vectors in order", async () => {
    const before = h.mock.requests.length
    const values = ["one", "two", "three"]
    const result = await embedMany({ model: onMock("dedicated").embedding("my-endpoint"), values })
    assert.deepEqual(result.embeddings, await mockVectors(values))
    assert.equal(h.mock.requests.length - before, 2, "one request from embedMany, one from mockVectors")
  })

  it("warns that dimensions are not Friendli's", async () => {
    const model = onMock("dedicated").embeddingModel("e")
    const result = await model.doEmbed({ values: ["x"], dimensions: 8 })
    assert.equal(result.embeddings[0]!.length, 16, "the mock model's length, not 8")
    assert.deepEqual(
      result.warnings.map((w) => (w.type === "unsupported" ? w.feature : w.type)),
      ["dimensions"],
    )
  })

  it("fails with InvalidRequestError naming a dedicated endpoint on a serverless provider, sending nothing", async () => {
    const before = h.mock.requests.length
    await assert.rejects(
      embed({ model: h.provider().embeddingModel("e"), value: "x", maxRetries: 0 }),
      (e: unknown) => e instanceof InvalidRequestError && /embeddings need a dedicated endpoint/.test(e.message),
    )
    assert.equal(h.mock.requests.length, before)
  })

  it("reports an HTTP error as a retryable APICallError, which the AI SDK retries", async () => {
    h.mock.queueFaults("status:503")
    const result = await embed({ model: onMock("dedicated").embeddingModel("e"), value: "after a 503", maxRetries: 1 })
    assert.equal(result.embedding.length, 16)
    await assert.rejects(
      embed({ model: onMock("dedicated", "status:500").embeddingModel("e"), value: "x", maxRetries: 0 }),
      (e: unknown) => APICallError.isInstance(e) && e.statusCode === 500 && e.isRetryable,
    )
  })
})

describe("imageModel", () => {
  it("generateImage returns the dedicated endpoint's PNG (asked as png), with its seed in the metadata", async () => {
    const result = await generateImage({
      model: onMock("dedicated").imageModel("flux"),
      prompt: "a lighthouse",
      seed: 5,
    })
    assert.deepEqual(Array.from(result.image.uint8Array.slice(0, 8)), PNG_SIGNATURE)
    assert.equal(result.image.mediaType, "image/png")
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/dedicated/v1/images/generations")
    assert.deepEqual(record.body, { model: "flux", prompt: "a lighthouse", seed: 5, response_format: "png" })
    assert.deepEqual(result.providerMetadata.friendli?.images, [{ seed: 5, responseFormat: "png" }])
  })

  it("downloads a url answer (responseFormat url) and passes Friendli's options", async () => {
    const result = await generateImage({
      model: onMock("dedicated").image("flux"),
      prompt: "a lighthouse",
      providerOptions: { friendli: { responseFormat: "url", numInferenceSteps: 4, guidanceScale: 3.5 } },
    })
    assert.deepEqual(Array.from(result.image.uint8Array.slice(0, 8)), PNG_SIGNATURE)
    const body = h.mock.lastRequest()!.body as Record<string, unknown>
    assert.equal(body.response_format, "url")
    assert.equal(body.num_inference_steps, 4)
    assert.equal(body.guidance_scale, 3.5)
  })

  it("sends input images to the edits endpoint as data: URLs, and warns of size and mask", async () => {
    const png = Uint8Array.from(atob("iVBORw0KGgo="), (c) => c.charCodeAt(0))
    const result = await generateImage({
      model: onMock("dedicated").imageModel("flux"),
      prompt: { text: "bluer", images: [png], mask: png },
      size: "512x512",
    })
    assert.deepEqual(Array.from(result.image.uint8Array.slice(0, 8)), PNG_SIGNATURE)
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/dedicated/v1/images/edits")
    const image = (record.body as { image: Array<{ image: string }> }).image
    assert.equal(image.length, 1)
    assert.match(image[0]!.image, /^data:image\/png;base64,/)
    assert.deepEqual(
      result.warnings.map((w) => (w.type === "unsupported" ? w.feature : w.type)),
      ["size", "mask"],
    )
  })

  it("generates on a container from /v1/images/generations, without asking a response format", async () => {
    const result = await generateImage({ model: onMock("container").imageModel("adapter"), prompt: "a cat" })
    assert.deepEqual(Array.from(result.image.uint8Array.slice(0, 8)), PNG_SIGNATURE)
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/v1/images/generations")
    assert.deepEqual(record.body, { model: "adapter", prompt: "a cat" })
  })

  it("makes n images with one request each", async () => {
    const before = h.mock.requests.length
    const result = await generateImage({ model: onMock("dedicated").imageModel("flux"), prompt: "p", n: 3 })
    assert.equal(result.images.length, 3)
    assert.equal(h.mock.requests.length - before, 3)
  })

  it("fails with InvalidRequestError on a serverless provider, sending nothing", async () => {
    const before = h.mock.requests.length
    await assert.rejects(
      generateImage({ model: h.provider().imageModel("flux"), prompt: "p", maxRetries: 0 }),
      (e: unknown) => e instanceof InvalidRequestError && /dedicated endpoint or a Friendli Container/.test(e.message),
    )
    assert.equal(h.mock.requests.length, before)
  })
})
