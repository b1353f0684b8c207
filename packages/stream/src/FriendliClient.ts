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
import {
  type ClientConfigError,
  InvalidRequestError,
  type InvalidResponseError,
  type RequestFailure,
} from "./ClientError.ts"
import type { ClientOptions, ResolvedClientOptions } from "./ClientOptions.ts"
import type * as CompletionStream from "./CompletionStream.ts"
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "./DecodeOptions.ts"
import { type Decode, makeEngine } from "./internal/client/client.ts"
import { environment } from "./internal/client/env.ts"
import { resolveClientOptions } from "./internal/client/options.ts"
import * as Requests from "./internal/client/request.ts"
import * as Specs from "./internal/client/specs.ts"
import type { Codec } from "./internal/codec.ts"
import { bodyPull, jsonTransform, type MakeEnd } from "./internal/fronts.ts"
import * as Protocols from "./internal/protocolFronts.ts"
import { chatCodec, completionCodec, toolAssistedCodec } from "./internal/schemas.ts"
import type * as MessagesStream from "./MessagesStream.ts"
import { ResponseBody, type ResponseBodyReader } from "./ResponseBody.ts"
import type * as ResponsesStream from "./ResponsesStream.ts"
import type { DecodeError } from "./StreamError.ts"
import type * as ToolAssistedChatStream from "./ToolAssistedChatStream.ts"
import type * as TranscriptionStream from "./TranscriptionStream.ts"

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
 * A `File`, a `Blob` (any runtime's), typed structurally.
 *
 * @since 0.2.0
 */
export type BlobLike = Requests.BlobLike

/**
 * A Responses request (`stream` is set for you). `model` is required on serverless and dedicated deployments.
 *
 * @since 0.2.0
 */
export type ResponsesRequest = Omit<Core.ContainerResponsesBody, "stream">

/**
 * A Messages request (`stream` is set for you). `model` is required on serverless and dedicated deployments.
 *
 * @since 0.2.0
 */
export type MessagesRequest = Omit<Core.ContainerMessagesBody, "stream">

/**
 * An audio transcription request, sent as `multipart/form-data`: the audio as a `File`, a `Blob` or bytes, and the
 * form's other fields. `model` is required on serverless and dedicated deployments.
 *
 * @since 0.2.0
 */
export interface TranscriptionRequest extends Omit<Core.ContainerAudioTranscriptionBody, "file" | "stream"> {
  /** The audio (mp3, wav, flac, ogg, ...). @since 0.2.0 */
  readonly file: BlobLike | Uint8Array | ArrayBuffer
  /** The file name the upload carries. Default: the `File`'s name, else `"audio"`. @since 0.2.0 */
  readonly filename?: string | undefined
}

/**
 * A tokenize request: `prompt` (and `model`, required on serverless and dedicated deployments).
 *
 * @since 0.2.0
 */
export type TokenizeRequest = Core.ContainerTokenizationBody

/**
 * A detokenize request: `tokens` (and `model`, required on serverless and dedicated deployments).
 *
 * @since 0.2.0
 */
export type DetokenizeRequest = Core.ContainerDetokenizationBody

/**
 * `/v1/responses` (OpenAI's Responses format).
 *
 * @since 0.2.0
 */
export interface Responses {
  /**
   * Streams a response as typed events (`stream: true` is set for you), ending at `response.completed` or
   * `response.incomplete`; `response.failed` fails with `ApiError`, a cut stream with `StreamTruncated`.
   *
   * @since 0.2.0
   */
  stream(
    request: ResponsesRequest,
    options?: StrictOptions,
  ): Stream.Stream<ResponsesStream.ResponsesStreamEvent, StreamFailure>
  /** Streams a response from an OpenAI-compatible server, decoded leniently. @since 0.2.0 */
  stream(
    request: ResponsesRequest,
    options: CompatibleOptions,
  ): Stream.Stream<ResponsesStream.CompatibleResponsesStreamEvent, StreamFailure>
  /** Asks for a whole response (`stream: false`). @since 0.2.0 */
  create(request: ResponsesRequest): Effect.Effect<Core.ResponsesSuccess, CreateFailure>
}

/**
 * `/v1/messages` (Anthropic's Messages format, beta).
 *
 * @since 0.2.0
 */
export interface Messages {
  /**
   * Streams a message as typed events (`stream: true` is set for you), ending at `message_stop`; `event: error`
   * fails with `ApiError`, a cut stream with `StreamTruncated`.
   *
   * @since 0.2.0
   */
  stream(
    request: MessagesRequest,
    options?: StrictOptions,
  ): Stream.Stream<MessagesStream.MessagesStreamEvent, StreamFailure>
  /** Streams a message from an Anthropic-compatible server, decoded leniently. @since 0.2.0 */
  stream(
    request: MessagesRequest,
    options: CompatibleOptions,
  ): Stream.Stream<MessagesStream.CompatibleMessagesStreamEvent, StreamFailure>
  /** Asks for a whole message (`stream: false`). @since 0.2.0 */
  create(request: MessagesRequest): Effect.Effect<Core.ServerlessMessagesSuccess, CreateFailure>
}

/**
 * `/v1/audio/transcriptions`: a `multipart/form-data` upload.
 *
 * @since 0.2.0
 */
export interface Transcriptions {
  /**
   * Uploads the audio and streams its transcript as typed events (`stream=true` is set for you), ending at
   * `transcript.text.done` + `[DONE]`; a cut stream fails with `StreamTruncated`.
   *
   * @since 0.2.0
   */
  stream(
    request: TranscriptionRequest,
    options?: StrictOptions,
  ): Stream.Stream<TranscriptionStream.TranscriptionStreamEvent, StreamFailure>
  /** Streams a transcript from an OpenAI-compatible server, decoded leniently. @since 0.2.0 */
  stream(
    request: TranscriptionRequest,
    options: CompatibleOptions,
  ): Stream.Stream<TranscriptionStream.CompatibleTranscriptionStreamEvent, StreamFailure>
  /** Transcribes a whole file (`stream: false`). @since 0.2.0 */
  create(request: TranscriptionRequest): Effect.Effect<Core.AudioTranscriptionResult, CreateFailure>
}

/**
 * The audio APIs.
 *
 * @since 0.2.0
 */
export interface Audio {
  /** @since 0.2.0 */
  readonly transcriptions: Transcriptions
}

/**
 * `/v1/models` (serverless only).
 *
 * @since 0.2.0
 */
export interface Models {
  /**
   * Lists the serverless models; on a dedicated or container client it fails with `InvalidRequestError` (not sent).
   *
   * @since 0.2.0
   */
  list(): Effect.Effect<Core.ServerlessModelListSuccess, CreateFailure>
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
  /** @since 0.2.0 */
  readonly responses: Responses
  /** @since 0.2.0 */
  readonly messages: Messages
  /** @since 0.2.0 */
  readonly audio: Audio
  /** @since 0.2.0 */
  readonly models: Models
  /** Converts text into the model's token ids (`/v1/tokenize`). @since 0.2.0 */
  tokenize(request: TokenizeRequest): Effect.Effect<Core.ServerlessTokenizationSuccess, CreateFailure>
  /** Converts token ids back into text (`/v1/detokenize`). @since 0.2.0 */
  detokenize(request: DetokenizeRequest): Effect.Effect<Core.ServerlessDetokenizationSuccess, CreateFailure>
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
  <A>(choose: (options: DecodeOptions | undefined) => Codec<A>, end?: MakeEnd<A>) =>
  (options: DecodeOptions | undefined): Decode<A> => ({
    body: (body, readError, idle) => bodyPull(body, choose, options, readError, idle, end),
    bytes: (bytes, idle) => jsonTransform(bytes, choose, options, idle, end),
  })

const decodeCompletions = decoder(completionCodec)
const decodeChat = decoder(chatCodec)
const decodeToolAssisted = decoder(toolAssistedCodec)
const decodeResponses = decoder(Protocols.responses.choose, Protocols.responses.end)
const decodeMessages = decoder(Protocols.messages.choose, Protocols.messages.end)
const decodeTranscription = decoder(Protocols.transcription.choose, Protocols.transcription.end)

/**
 * Makes the client from resolved options and an `HttpClient`; `bodyOf` (since 0.3.0) reads the bodies of streamed
 * responses (default: `ResponseBody.webBody`, the body of a `fetch` response).
 *
 * @since 0.1.0
 */
export const fromHttpClient = (
  options: ResolvedClientOptions,
  http: HttpClient.HttpClient,
  bodyOf?: ResponseBodyReader,
): FriendliClient => {
  const engine = makeEngine(options, http, bodyOf)
  const endpoints = Requests.endpointsFor(options.deployment)
  return {
    options,
    completions: {
      stream: (request: Core.CompletionRequest, decodeOptions?: DecodeOptions) =>
        engine.stream(Requests.completions, request, decodeCompletions(decodeOptions)),
      create: (request) => engine.create(Requests.completions, request, Specs.completionResponse),
    } as Completions,
    chat: {
      stream: (request: Core.ChatCompletionRequest, decodeOptions?: DecodeOptions) =>
        engine.stream(Requests.chat, request, decodeChat(decodeOptions)),
      create: (request) => engine.create(Requests.chat, request, Specs.chatResponse),
    } as Chat,
    toolAssistedChat: {
      stream: (request, decodeOptions) =>
        engine.stream(Requests.toolAssistedChat, request, decodeToolAssisted(decodeOptions)),
    },
    responses: {
      stream: (request: ResponsesRequest, decodeOptions?: DecodeOptions) =>
        engine.stream(endpoints.responses, request, decodeResponses(decodeOptions)),
      create: (request: ResponsesRequest) => engine.create(endpoints.responses, request, Specs.responsesResponse),
    } as Responses,
    messages: {
      stream: (request: MessagesRequest, decodeOptions?: DecodeOptions) =>
        engine.stream(endpoints.messages, request, decodeMessages(decodeOptions)),
      create: (request: MessagesRequest) => engine.create(endpoints.messages, request, Specs.messagesResponse),
    } as Messages,
    audio: {
      transcriptions: {
        stream: (request: TranscriptionRequest, decodeOptions?: DecodeOptions) =>
          engine.stream(endpoints.transcriptions, request, decodeTranscription(decodeOptions)),
        create: (request: TranscriptionRequest) =>
          engine.create(endpoints.transcriptions, request, Specs.transcriptionResponse),
      } as Transcriptions,
    },
    models: {
      list: () =>
        options.deployment === "serverless"
          ? engine.create(endpoints.models, undefined, Specs.modelsResponse)
          : Effect.fail(
              new InvalidRequestError({
                message: `models.list() is a serverless API; this client's deployment is ${options.deployment}, so nothing was sent.`,
                explanation: `deployment is ${options.deployment}, not serverless`,
              }),
            ),
    },
    tokenize: (request) => engine.create(endpoints.tokenize, request, Specs.tokenizeResponse),
    detokenize: (request) => engine.create(endpoints.detokenize, request, Specs.detokenizeResponse),
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
    (resolved) =>
      Effect.flatMap(HttpClient.HttpClient, (http) =>
        Effect.map(ResponseBody, (bodyOf) => fromHttpClient(resolved, http, bodyOf)),
      ),
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
