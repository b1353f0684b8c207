/**
 * The Friendli client as an Effect service, built on `effect/http`'s `HttpClient`: every runtime adapter
 * only provides an `HttpClient` layer. Streams are the decoder's typed streams; failures are the typed errors of
 * `ClientError` and, inside a stream, of `StreamError`.
 *
 * @example
 * import { FetchHttpClient } from "effect/http"
 * import { Effect, Layer, Stream } from "effect"
 * import { FriendliClient } from "@friendli-stream/stream"
 *
 * const program = Effect.gen(function* () {
 *   const client = yield* FriendliClient.FriendliClient
 *   yield* client.chat
 *     .stream({ model: "meta-llama-3.1-8b-instruct", messages: [{ role: "user", content: "Hi" }] })
 *     .pipe(Stream.runForEach((chunk) => Effect.log(chunk.choices[0]?.delta.content ?? "")))
 * })
 * program.pipe(
 *   Effect.provide(FriendliClient.layer({ token: "flp_..." }).pipe(Layer.provide(FetchHttpClient.layer))),
 *   Effect.runPromise,
 * )
 *
 * @since 0.1.0
 */

import type * as Core from "@friendli-stream/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import type * as ChatCompletionStream from "./ChatCompletionStream.ts"
import type { ClientConfigError, InvalidResponseError, RequestFailure } from "./ClientError.ts"
import type { ClientOptions, ResolvedClientOptions } from "./ClientOptions.ts"
import type * as CompletionStream from "./CompletionStream.ts"
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "./DecodeOptions.ts"
import { chatResponse, completionResponse, type Decode, makeEngine } from "./internal/client/client.ts"
import { environment } from "./internal/client/env.ts"
import { resolveClientOptions } from "./internal/client/options.ts"
import * as Requests from "./internal/client/request.ts"
import type { Codec } from "./internal/codec.ts"
import { bodyPull, jsonTransform } from "./internal/fronts.ts"
import { chatCodec, completionCodec, toolAssistedCodec } from "./internal/schemas.ts"
import type { DecodeError } from "./StreamError.ts"
import type * as ToolAssistedChatStream from "./ToolAssistedChatStream.ts"

/**
 * Any failure of a stream: before it started (`ClientError`s) or inside it (`StreamError`s).
 *
 * @since 0.1.0
 */
export type StreamFailure = RequestFailure | DecodeError

/**
 * Any failure of a non-streamed request.
 *
 * @since 0.1.0
 */
export type CreateFailure = RequestFailure | InvalidResponseError

/**
 * `/v1/completions`.
 *
 * @since 0.1.0
 */
export interface Completions {
  /** Streams a completion as typed chunks (`stream: true` is set for you). @since 0.1.0 */
  stream(
    request: Core.CompletionRequest,
    options?: StrictOptions,
  ): Stream.Stream<CompletionStream.CompletionChunk, StreamFailure>
  /** Streams a completion from an OpenAI-compatible server, decoded leniently. @since 0.1.0 */
  stream(
    request: Core.CompletionRequest,
    options: CompatibleOptions,
  ): Stream.Stream<CompletionStream.CompatibleCompletionChunk, StreamFailure>
  /** Asks for a whole completion (`stream: false`). @since 0.1.0 */
  create(request: Core.CompletionRequest): Effect.Effect<Core.CompletionResponse, CreateFailure>
}

/**
 * `/v1/chat/completions`.
 *
 * @since 0.1.0
 */
export interface Chat {
  /** Streams a chat completion as typed chunks (`stream: true` is set for you). @since 0.1.0 */
  stream(
    request: Core.ChatCompletionRequest,
    options?: StrictOptions,
  ): Stream.Stream<ChatCompletionStream.ChatCompletionChunk, StreamFailure>
  /** Streams a chat completion from an OpenAI-compatible server, decoded leniently. @since 0.1.0 */
  stream(
    request: Core.ChatCompletionRequest,
    options: CompatibleOptions,
  ): Stream.Stream<ChatCompletionStream.CompatibleChatCompletionChunk, StreamFailure>
  /** Asks for a whole chat completion (`stream: false`). @since 0.1.0 */
  create(request: Core.ChatCompletionRequest): Effect.Effect<Core.ChatCompletionResponse, CreateFailure>
}

/**
 * `/tools/v1/chat/completions` (serverless): chat chunks and tool statuses. It has no non-streamed form.
 *
 * @since 0.1.0
 */
export interface ToolAssistedChat {
  /** Streams a tool-assisted chat completion. @since 0.1.0 */
  stream(
    request: Core.ToolAssistedChatCompletionRequest,
    options?: DecodeOptions,
  ): Stream.Stream<ToolAssistedChatStream.ToolAssistedChatEvent, StreamFailure>
}

/**
 * The client service.
 *
 * @since 0.1.0
 */
export interface FriendliClient {
  /** The options in force (defaults and environment filled in). @since 0.1.0 */
  readonly options: ResolvedClientOptions
  /** @since 0.1.0 */
  readonly completions: Completions
  /** @since 0.1.0 */
  readonly chat: Chat
  /** @since 0.1.0 */
  readonly toolAssistedChat: ToolAssistedChat
}

/**
 * The tag of the client service.
 *
 * @since 0.1.0
 */
export const FriendliClient: Context.Service<FriendliClient, FriendliClient> = Context.Service<FriendliClient>(
  "@friendli-stream/stream/FriendliClient",
)

/** How the client decodes one API's body, with the codec that `validation` chooses. */
const decoder =
  <A>(choose: (options: DecodeOptions | undefined) => Codec<A>) =>
  (options: DecodeOptions | undefined): Decode<A> => ({
    body: (body, readError, idle) => bodyPull(body, choose, options, readError, idle),
    bytes: (bytes, idle) => jsonTransform(bytes, choose, options, idle),
  })

const decodeCompletions = decoder(completionCodec)
const decodeChat = decoder(chatCodec)
const decodeToolAssisted = decoder(toolAssistedCodec)

/**
 * Makes the client from resolved options and an `HttpClient`.
 *
 * @since 0.1.0
 */
export const fromHttpClient = (options: ResolvedClientOptions, http: HttpClient.HttpClient): FriendliClient => {
  const engine = makeEngine(options, http)
  return {
    options,
    completions: {
      stream: (request: Core.CompletionRequest, decodeOptions?: DecodeOptions) =>
        engine.stream(Requests.completions, request, decodeCompletions(decodeOptions)),
      create: (request) => engine.create(Requests.completions, request, completionResponse),
    } as Completions,
    chat: {
      stream: (request: Core.ChatCompletionRequest, decodeOptions?: DecodeOptions) =>
        engine.stream(Requests.chat, request, decodeChat(decodeOptions)),
      create: (request) => engine.create(Requests.chat, request, chatResponse),
    } as Chat,
    toolAssistedChat: {
      stream: (request, decodeOptions) =>
        engine.stream(Requests.toolAssistedChat, request, decodeToolAssisted(decodeOptions)),
    },
  }
}

/**
 * Makes the client on the `HttpClient` in context, reading `FRIENDLI_TOKEN` and `FRIENDLI_TEAM` from the current
 * `ConfigProvider` (the environment unless the program installs another); fails with `ClientConfigError` for
 * options that cannot work.
 *
 * @since 0.1.0
 */
export const make = (
  options: ClientOptions = {},
): Effect.Effect<FriendliClient, ClientConfigError, HttpClient.HttpClient> =>
  Effect.flatMap(
    Effect.flatMap(environment, (env) =>
      Effect.try({ try: () => resolveClientOptions(options, env), catch: (e) => e as ClientConfigError }),
    ),
    (resolved) => Effect.map(HttpClient.HttpClient, (http) => fromHttpClient(resolved, http)),
  )

/**
 * The client as a layer; a runtime adapter provides the `HttpClient`.
 *
 * @since 0.1.0
 */
export const layer = (
  options: ClientOptions = {},
): Layer.Layer<FriendliClient, ClientConfigError, HttpClient.HttpClient> => Layer.effect(FriendliClient, make(options))

/**
 * A `fetch` function as the consumer's program types it (the DOM or `@types/node` type).
 *
 * @since 0.1.0
 */
export type FetchFunction = typeof globalThis extends { fetch: infer F }
  ? F
  : (input: never, init?: never) => Promise<unknown>

/**
 * The `HttpClient` layer on Web `fetch`: the global one, or the `fetch` given. Runtime adapters whose platform
 * client is `fetch` (Deno, Bun, Workers) use it as it is.
 *
 * @since 0.1.0
 */
export const fetchHttpClient = (fetch?: FetchFunction | undefined): Layer.Layer<HttpClient.HttpClient> =>
  fetch === undefined
    ? FetchHttpClient.layer
    : FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch as never)))
