// Embeddings (dedicated) and image generation / edits (dedicated and container) of the mock.
import assert from "node:assert/strict"
import {
  ContainerImageGenerateSuccess,
  DedicatedEmbeddingsSuccess,
  DedicatedImageGenerateSuccess,
} from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import { Schema } from "effect"
import { newMock, post } from "./helpers.ts"

const decodeEmbeddings = Schema.decodeUnknownSync(DedicatedEmbeddingsSuccess, { errors: "all" })
const decodeDedicatedImages = Schema.decodeUnknownSync(DedicatedImageGenerateSuccess, { errors: "all" })
const decodeContainerImage = Schema.decodeUnknownSync(ContainerImageGenerateSuccess, { errors: "all" })

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const bytesOf = (base64: string): Uint8Array => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))

interface Embeddings {
  data: Array<{ index: number; embedding: Array<number> | string }>
  usage: { prompt_tokens: number; total_tokens: number }
  model: string
}

describe("embeddings", () => {
  it("answers one unit vector per input, the same for the same text, for any model name", async () => {
    const mock = newMock()
    const res = await post(mock, "/dedicated/v1/embeddings", {
      model: "any-endpoint",
      input: ["hello", "world", "hello"],
    })
    assert.equal(res.status, 200)
    const body = (await res.json()) as Embeddings
    decodeEmbeddings(body)
    assert.equal(body.model, "any-endpoint")
    assert.deepEqual(
      body.data.map((d) => d.index),
      [0, 1, 2],
    )
    const [a, b, c] = body.data.map((d) => d.embedding as Array<number>)
    assert.deepEqual(a, c)
    assert.notDeepEqual(a, b)
    const norm = Math.sqrt(a!.reduce((s, x) => s + x * x, 0))
    assert.ok(Math.abs(norm - 1) < 1e-6, `norm ${norm}`)
    assert.ok(body.usage.prompt_tokens > 0)
    assert.equal(body.usage.total_tokens, body.usage.prompt_tokens)
  })

  it("encodes the vectors as little-endian float32 base64 when encoding_format is base64", async () => {
    const mock = newMock()
    const floats = (await (
      await post(mock, "/dedicated/v1/embeddings", { model: "e", input: "hi" })
    ).json()) as Embeddings
    const packed = (await (
      await post(mock, "/dedicated/v1/embeddings", { model: "e", input: "hi", encoding_format: "base64" })
    ).json()) as Embeddings
    decodeEmbeddings(packed)
    const bytes = bytesOf(packed.data[0]!.embedding as string)
    assert.deepEqual(Array.from(new Float32Array(bytes.buffer)), floats.data[0]!.embedding)
  })

  it("embeds a token sequence given as tokens", async () => {
    const body = (await (
      await post(newMock(), "/dedicated/v1/embeddings", { model: "e", tokens: [1, 2, 3] })
    ).json()) as Embeddings
    assert.equal(body.data.length, 1)
    assert.equal(body.usage.prompt_tokens, 3)
  })

  it("answers 422 naming the field when input is missing or of the wrong type", async () => {
    const mock = newMock()
    const missing = await post(mock, "/dedicated/v1/embeddings", { model: "e" })
    assert.equal(missing.status, 422)
    const detail = ((await missing.json()) as { detail: Array<{ loc: Array<unknown> }> }).detail
    assert.deepEqual(detail[0]!.loc, ["body", "input"])
    const wrong = await post(mock, "/dedicated/v1/embeddings", { model: "e", input: 42 })
    assert.equal(wrong.status, 422)
    assert.match(await wrong.text(), /"input"/)
  })

  it("is a dedicated API: serverless and container paths answer 404", async () => {
    const mock = newMock()
    for (const path of ["/serverless/v1/embeddings", "/v1/embeddings"]) {
      assert.equal((await post(mock, path, { model: "e", input: "x" })).status, 404, path)
    }
  })

  it("records the request and answers an injected status fault", async () => {
    const mock = newMock()
    const res = await post(
      mock,
      "/dedicated/v1/embeddings",
      { model: "e", input: "x" },
      {
        headers: { "x-mock-fault": "status:503" },
      },
    )
    assert.equal(res.status, 503)
    const record = mock.lastRequest()!
    assert.equal(record.api, "embeddings")
    assert.equal(record.deployment, "dedicated")
    assert.deepEqual(record.body, { model: "e", input: "x" })
  })
})

describe("images", () => {
  it("answers a PNG as a data: URL by default on a dedicated endpoint, with the seed asked for", async () => {
    const res = await post(newMock(), "/dedicated/v1/images/generations", { model: "flux", prompt: "a cat", seed: 7 })
    assert.equal(res.status, 200)
    const body = (await res.json()) as { data: Array<{ url: string; seed: number; response_format: string }> }
    decodeDedicatedImages(body)
    const item = body.data[0]!
    assert.equal(item.seed, 7)
    assert.equal(item.response_format, "url")
    const prefix = "data:image/png;base64,"
    assert.ok(item.url.startsWith(prefix))
    assert.deepEqual(Array.from(bytesOf(item.url.slice(prefix.length)).slice(0, 8)), PNG_SIGNATURE)
  })

  it("answers b64_json for the other response formats, and edits the same way", async () => {
    const mock = newMock()
    for (const [path, extra] of [
      ["/dedicated/v1/images/generations", {}],
      ["/dedicated/v1/images/edits", { image: { image: "data:image/png;base64,AAAA" } }],
    ] as const) {
      const res = await post(mock, path, { model: "flux", prompt: "p", response_format: "png", ...extra })
      assert.equal(res.status, 200, path)
      const body = (await res.json()) as { data: Array<{ b64_json: string }> }
      decodeDedicatedImages(body)
      assert.deepEqual(Array.from(bytesOf(body.data[0]!.b64_json).slice(0, 8)), PNG_SIGNATURE, path)
    }
  })

  it("answers {image} on a container, without a model", async () => {
    const mock = newMock()
    for (const [path, extra] of [
      ["/v1/images/generations", {}],
      ["/v1/images/edits", { image: [{ image: "https://example.com/cat.png" }] }],
    ] as const) {
      const res = await post(mock, path, { prompt: "p", ...extra })
      assert.equal(res.status, 200, path)
      const body = (await res.json()) as { image: string }
      decodeContainerImage(body)
      assert.deepEqual(Array.from(bytesOf(body.image).slice(0, 8)), PNG_SIGNATURE, path)
      assert.equal(mock.lastRequest()!.api, path.endsWith("edits") ? "images-edits" : "images-generations")
    }
  })

  it("answers 422 naming the field: an edit without image, a container's response_format it does not have", async () => {
    const mock = newMock()
    const noImage = await post(mock, "/dedicated/v1/images/edits", { model: "flux", prompt: "p" })
    assert.equal(noImage.status, 422)
    assert.deepEqual(((await noImage.json()) as { detail: Array<{ loc: Array<unknown> }> }).detail[0]!.loc, [
      "body",
      "image",
    ])
    const format = await post(mock, "/v1/images/generations", { prompt: "p", response_format: "url" })
    assert.equal(format.status, 422)
    assert.match(await format.text(), /response_format/)
  })

  it("answers an injected status fault", async () => {
    const res = await post(
      newMock(),
      "/v1/images/generations",
      { prompt: "p" },
      {
        headers: { "x-mock-fault": "status:500" },
      },
    )
    assert.equal(res.status, 500)
  })
})
