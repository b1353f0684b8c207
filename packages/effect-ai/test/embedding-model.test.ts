// effect/ai's EmbeddingModel on FriendliEmbeddingModel, against the mock's dedicated embeddings over HTTP.
import assert from "node:assert/strict"
import { FriendliClient, InvalidRequestError, ServerError } from "@friendli-stream/client"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import * as AiError from "effect/ai/AiError"
import * as EmbeddingModel from "effect/ai/EmbeddingModel"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { FriendliEmbeddingModel } from "../src/index.ts"
import { type Harness, startMock, TOKEN } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

/** The model on the mock's API of `deployment` (no retries); `faults` go in the base URL. */
const embeddings = (deployment: "dedicated" | "serverless" | "container" = "dedicated", faults?: string) =>
  FriendliEmbeddingModel.layer({ model: "my-endpoint" }).pipe(
    Layer.provide(
      FriendliClient.layer({
        token: TOKEN,
        deployment,
        baseURL: `${h.server.url}${faults === undefined ? "" : `/_fault/${faults}`}${deployment === "container" ? "" : `/${deployment}`}`,
        maxRetries: 0,
      }),
    ),
    Layer.provide(FriendliClient.fetchHttpClient()),
  )

/** The vectors the mock answers for these inputs, asked without the model. */
const mockVectors = async (input: ReadonlyArray<string>): Promise<Array<Array<number>>> => {
  const response = await fetch(`${h.server.url}/dedicated/v1/embeddings`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "e", input }),
  })
  return ((await response.json()) as { data: Array<{ embedding: Array<number> }> }).data.map((d) => d.embedding)
}

const run = <A, E>(effect: Effect.Effect<A, E, EmbeddingModel.EmbeddingModel>, layer = embeddings()) =>
  Effect.runPromise(effect.pipe(Effect.provide(layer)))

describe("FriendliEmbeddingModel", () => {
  it("embedMany returns the dedicated endpoint's vectors in input order, with the prompt's tokens", async () => {
    const values = ["one", "two", "three"]
    const result = await run(Effect.flatMap(EmbeddingModel.EmbeddingModel, (m) => m.embedMany(values)))
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/dedicated/v1/embeddings")
    assert.deepEqual(record.body, { model: "my-endpoint", input: values })
    assert.deepEqual(
      result.embeddings.map((e) => e.vector),
      await mockVectors(values),
    )
    assert.ok((result.usage.inputTokens ?? 0) > 0)
  })

  it("batches concurrent embed calls into one request", async () => {
    const before = h.mock.requests.length
    const [a, b] = await run(
      Effect.flatMap(EmbeddingModel.EmbeddingModel, (m) =>
        Effect.all([m.embed("left"), m.embed("right")], { concurrency: "unbounded" }),
      ),
    )
    assert.equal(h.mock.requests.length - before, 1)
    assert.deepEqual([a!.vector, b!.vector], await mockVectors(["left", "right"]))
  })

  it("fails with an AiError whose cause is our InvalidRequestError on a serverless or container client, sending nothing", async () => {
    for (const deployment of ["serverless", "container"] as const) {
      const before = h.mock.requests.length
      const exit = await run(
        Effect.flatMap(EmbeddingModel.EmbeddingModel, (m) => m.embedMany(["x"])).pipe(Effect.exit),
        embeddings(deployment),
      )
      const error = Exit.findErrorOption(exit)
      assert.ok(error._tag === "Some" && AiError.isAiError(error.value), String(exit))
      assert.equal(error.value.reason._tag, "InvalidRequestError")
      const cause = FriendliEmbeddingModel.failureOf(error.value)
      assert.ok(cause instanceof InvalidRequestError)
      assert.match(cause.message, /embeddings need a dedicated endpoint/)
      assert.equal(h.mock.requests.length, before, deployment)
    }
  })

  it("a 500 is an AiError with our ServerError as cause", async () => {
    const exit = await run(
      Effect.flatMap(EmbeddingModel.EmbeddingModel, (m) => m.embedMany(["x"])).pipe(Effect.exit),
      embeddings("dedicated", "status:500"),
    )
    const error = Exit.findErrorOption(exit)
    assert.ok(error._tag === "Some" && AiError.isAiError(error.value), String(exit))
    assert.equal(error.value.module, "FriendliEmbeddingModel")
    assert.ok(FriendliEmbeddingModel.failureOf(error.value) instanceof ServerError)
  })
})
