/**
 * `effect/ai`'s `EmbeddingModel` on the Friendli client: `embed` (batched: the embeds of one step go in one request)
 * and `embedMany` call `embeddings.create` (`/v1/embeddings` of a dedicated endpoint) through
 * `@friendli-stream/client` (retries, timeouts, typed errors). On a serverless or container client every call
 * fails with an `AiError` whose reason is `InvalidRequestError` (nothing sent).
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { EmbeddingModel } from "effect/ai"
 * import { FetchHttpClient } from "effect/http"
 * import { FriendliClient } from "@friendli-stream/client"
 * import { FriendliEmbeddingModel } from "@friendli-stream/effect-ai"
 *
 * const Embeddings = FriendliEmbeddingModel.layer({ model: "my-endpoint-id" }).pipe(
 *   Layer.provide(FriendliClient.layer({ deployment: "dedicated", token: process.env.FRIENDLI_TOKEN })),
 *   Layer.provide(FetchHttpClient.layer),
 * )
 * const program = Effect.gen(function* () {
 *   const model = yield* EmbeddingModel.EmbeddingModel
 *   return yield* model.embedMany(["a cat", "a dog"])
 * }).pipe(Effect.provide(Embeddings))
 *
 * @since 0.3.0
 */
import { FriendliClient } from "@friendli-stream/client"
import { embeddingsOf } from "@friendli-stream/client/provider"
import type * as AiError from "effect/ai/AiError"
import * as EmbeddingModel from "effect/ai/EmbeddingModel"
import * as Model from "effect/ai/Model"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type FriendliFailure, failureOf as failure, toAiError } from "./internal/errors.ts"

/**
 * The model: a dedicated endpoint's id (optionally `ENDPOINT_ID:ADAPTER_ROUTE`).
 *
 * @since 0.3.0
 */
export interface Config {
  /** @since 0.3.0 */
  readonly model: string
}

/**
 * Our typed error behind an `AiError` this model failed with (an `InvalidRequestError` on a deployment without
 * embeddings, a `ServerError`, …), or `undefined` for an `AiError` that came from elsewhere.
 *
 * @since 0.3.0
 */
export const failureOf = (error: AiError.AiError): FriendliFailure | undefined => failure(error)

/**
 * Makes the `EmbeddingModel` on the `FriendliClient` in context: each `embedMany` (and each batch of `embed`s) is
 * one `embeddings.create` request; the vectors come back in input order, `usage.inputTokens` is the prompt's tokens.
 *
 * @since 0.3.0
 */
export const make = (
  config: Config,
): Effect.Effect<EmbeddingModel.EmbeddingModel, never, FriendliClient.FriendliClient> =>
  Effect.gen(function* () {
    const client = yield* FriendliClient.FriendliClient
    return yield* EmbeddingModel.make({
      embedMany: ({ inputs }) =>
        client.embeddings.create({ model: config.model, input: [...inputs] }).pipe(
          Effect.map((answer) => {
            const { vectors, tokens } = embeddingsOf(answer)
            return { results: vectors, usage: { inputTokens: tokens } }
          }),
          Effect.mapError((error) => toAiError("embedMany", error, "FriendliEmbeddingModel")),
        ),
    })
  })

/**
 * The `EmbeddingModel` as a layer; provide `FriendliClient.layer({ deployment: "dedicated", ... })` (and an
 * `HttpClient`) under it.
 *
 * @since 0.3.0
 */
export const layer = (
  config: Config,
): Layer.Layer<EmbeddingModel.EmbeddingModel, never, FriendliClient.FriendliClient> =>
  Layer.effect(EmbeddingModel.EmbeddingModel, make(config))

/**
 * The model as an `effect/ai` `Model` (provider name `"friendli"`), for `ExecutionPlan`s and `Model.ProviderName`.
 *
 * @since 0.3.0
 */
export const model = (
  name: string,
): Model.Model<"friendli", EmbeddingModel.EmbeddingModel, FriendliClient.FriendliClient> =>
  Model.make("friendli", name, layer({ model: name }))
