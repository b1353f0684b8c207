/**
 * `effect/ai`'s `LanguageModel` on the Friendli client: `LanguageModel.generateText`, `streamText`,
 * `generateObject`, `Chat` and `Toolkit` handlers work against FriendliAI (serverless, dedicated, container) and
 * OpenAI-compatible servers, through `@friendli-stream/client` (retries, timeouts, typed errors) and `@friendli-stream/stream`'s decoder.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { LanguageModel } from "effect/ai"
 * import { FetchHttpClient } from "effect/http"
 * import { FriendliClient } from "@friendli-stream/client"
 * import { FriendliLanguageModel } from "@friendli-stream/effect-ai"
 *
 * const Friendli = FriendliLanguageModel.layer({ model: "meta-llama-3.1-8b-instruct" }).pipe(
 *   Layer.provide(FriendliClient.layer({ token: process.env.FRIENDLI_TOKEN })),
 *   Layer.provide(FetchHttpClient.layer),
 * )
 * const program = LanguageModel.generateText({ prompt: "Write a haiku." }).pipe(Effect.provide(Friendli))
 *
 * @since 0.2.0
 */
import { FriendliClient } from "@friendli-stream/client"
import type * as AiError from "effect/ai/AiError"
import * as LanguageModel from "effect/ai/LanguageModel"
import * as Model from "effect/ai/Model"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { type FriendliFailure, failureOf as failure, toAiError } from "./internal/errors.ts"
import { foldStreamParts, responseParts, StreamMapper } from "./internal/parts.ts"
import { chatRequest, type RequestFields } from "./internal/request.ts"

/**
 * Fields of Friendli's chat request added to every request of the model (`max_tokens`, `temperature`,
 * `reasoning_effort`, `parse_reasoning`, `chat_template_kwargs`, …); the prompt, tools and response format come
 * from each call.
 *
 * @since 0.2.0
 */
export type Fields = RequestFields

/**
 * The model and its fixed request fields.
 *
 * @since 0.2.0
 */
export interface Config {
  /** The model (serverless), endpoint id (dedicated) or adapter route (container). @since 0.2.0 */
  readonly model: string
  /** @since 0.2.0 */
  readonly fields?: Fields | undefined
}

/**
 * Any failure of the client behind an `AiError` of this model.
 *
 * @since 0.2.0
 */
export type Failure = FriendliFailure

/**
 * Our typed error behind an `AiError` this model failed with (a `RateLimitError`, a `StreamTruncated`, an
 * `ApiError`, …), or `undefined` for an `AiError` that came from elsewhere (e.g. a tool's parameters).
 *
 * @since 0.2.0
 */
export const failureOf = (error: AiError.AiError): Failure | undefined => failure(error)

/**
 * Makes the `LanguageModel` on the `FriendliClient` in context. `generateText` asks for a whole chat completion;
 * `streamText` streams one (a cut stream or an in-stream error fails the stream with an `AiError`).
 *
 * @since 0.2.0
 */
export const make = (
  config: Config,
): Effect.Effect<LanguageModel.LanguageModel, never, FriendliClient.FriendliClient> =>
  Effect.gen(function* () {
    const client = yield* FriendliClient.FriendliClient
    const fields = config.fields ?? {}
    /** The parts of a streamed request: the chat API, or the tool-assisted one when built-in tools are given. */
    const streamParts = (options: LanguageModel.ProviderOptions, method: string) =>
      Stream.suspend(() => {
        const { body, builtIns } = chatRequest(config.model, fields, options)
        const request = { ...body, stream_options: { include_usage: true } }
        const mapper = new StreamMapper(builtIns)
        const items =
          builtIns.length > 0
            ? Stream.map(client.toolAssistedChat.stream(request as never), (item) => mapper.item(item))
            : Stream.map(client.chat.stream(request), (chunk) => mapper.chunk(chunk))
        return items.pipe(
          Stream.flattenIterable,
          Stream.concat(Stream.suspend(() => Stream.fromIterable(mapper.finish()))),
          Stream.mapError((error) => toAiError(method, error)),
        )
      })
    return yield* LanguageModel.make({
      generateText: (options) => {
        const { body, builtIns } = chatRequest(config.model, fields, options)
        // The tool-assisted API only streams: with built-in tools, the stream is folded into the response.
        return builtIns.length > 0
          ? Effect.map(Stream.runCollect(streamParts(options, "generateText")), foldStreamParts)
          : client.chat.create(body).pipe(
              Effect.map(responseParts),
              Effect.mapError((error) => toAiError("generateText", error)),
            )
      },
      streamText: (options) => streamParts(options, "streamText"),
    })
  })

/**
 * The `LanguageModel` as a layer; provide `FriendliClient.layer(...)` (and an `HttpClient`) under it.
 *
 * @since 0.2.0
 */
export const layer = (config: Config): Layer.Layer<LanguageModel.LanguageModel, never, FriendliClient.FriendliClient> =>
  Layer.effect(LanguageModel.LanguageModel, make(config))

/**
 * The model as an `effect/ai` `Model` (provider name `"friendli"`), for `ExecutionPlan`s and `Model.ProviderName`.
 *
 * @since 0.2.0
 */
export const model = (
  name: string,
  fields?: Fields,
): Model.Model<"friendli", LanguageModel.LanguageModel, FriendliClient.FriendliClient> =>
  Model.make("friendli", name, layer({ model: name, fields }))
