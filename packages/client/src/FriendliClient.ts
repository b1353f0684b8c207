/**
 * The Friendli client as an Effect service, built on `effect/http`'s `HttpClient`: every runtime adapter
 * only provides an `HttpClient` layer. Streams are the decoder's typed streams; failures are the typed errors of
 * `ClientError` and, inside a stream, of `StreamError`.
 *
 * @example
 * import { FetchHttpClient } from "effect/http"
 * import { Effect, Layer, Stream } from "effect"
 * import { FriendliClient } from "@friendli-stream/client"
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
import type { CompatibleOptions, DecodeError, DecodeOptions, StrictOptions } from "@friendli-stream/stream"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import type { ClientConfigError, InvalidResponseError, RequestFailure } from "./ClientError.ts"
import type { ClientOptions, ResolvedClientOptions } from "./ClientOptions.ts"
import type * as Apis from "./internal/apis.ts"
import { apis } from "./internal/apis.ts"
import { clientOf } from "./internal/clients.ts"
import { environment } from "./internal/env.ts"
import { resolveClientOptions } from "./internal/options.ts"
import type * as Requests from "./internal/request.ts"
import { ResponseBody, type ResponseBodyReader } from "./ResponseBody.ts"

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
 * The Effect methods of one streamed API: `stream` (strict items by default, compatible ones with
 * `{ validation: "compatible" }`; `stream: true` is set for you), and `create` (`stream: false`) when the API has a
 * non-streamed form.
 *
 * @since 0.3.0
 */
export interface StreamMethods<Req, S, C> {
  /** Streams the API's items, decoded with the strict Friendli schemas. @since 0.3.0 */
  stream(request: Req, options?: StrictOptions): Stream.Stream<S, StreamFailure>
  /** Streams the API's items from a compatible server, decoded leniently. @since 0.3.0 */
  stream(request: Req, options: CompatibleOptions): Stream.Stream<C, StreamFailure>
  /** Streams the API's items, with the validation chosen at run time. @since 0.3.0 */
  stream(request: Req, options?: DecodeOptions): Stream.Stream<S | C, StreamFailure>
}

/**
 * The non-streamed form of an API.
 *
 * @since 0.3.0
 */
export interface CreateMethod<Req, R> {
  /**
   * Asks for the whole answer (`stream: false`). A request with `stream: true` is a type error here, and fails with
   * `InvalidRequestError` unsent: `stream()` streams.
   *
   * @since 0.3.0
   */
  create(request: Req & { readonly stream?: false | null | undefined }): Effect.Effect<R, CreateFailure>
}

/**
 * The Effect methods of one entry of the table of APIs, or of a group of them.
 *
 * @since 0.3.0
 */
export type EffectApi<Entry> =
  Entry extends Apis.Streamed<infer Req, infer S, infer C, infer _F, infer R, infer _K>
    ? StreamMethods<Req, S, C> & ([R] extends [never] ? unknown : CreateMethod<Req, R>)
    : Entry extends Apis.Plain<infer Req, infer R>
      ? [Req] extends [undefined]
        ? () => Effect.Effect<R, CreateFailure>
        : (request: Req) => Effect.Effect<R, CreateFailure>
      : { readonly [K in keyof Entry]: EffectApi<Entry[K]> }

/**
 * `/v1/completions`: `stream` and `create`.
 *
 * @since 0.1.0
 */
export type Completions = EffectApi<Apis.Apis["completions"]>

/**
 * `/v1/chat/completions`: `stream` and `create`.
 *
 * @since 0.1.0
 */
export type Chat = EffectApi<Apis.Apis["chat"]>

/**
 * `/tools/v1/chat/completions` (serverless): chat chunks and tool statuses. It has no non-streamed form.
 *
 * @since 0.1.0
 */
export type ToolAssistedChat = EffectApi<Apis.Apis["toolAssistedChat"]>

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
 * An embeddings request (dedicated endpoints): `model` (the endpoint id), and `input` (a string or several) or
 * `tokens`; `encoding_format: "base64"` asks for the vectors as base64 float32 bytes.
 *
 * @since 0.3.0
 */
export type EmbeddingsRequest = Core.DedicatedEmbeddingsBody

/**
 * An image generation request: a dedicated endpoint's body (`model` required, `response_format` `url` by default)
 * or a container's (`model` optional, `response_format` `jpeg` or `raw`).
 *
 * @since 0.3.0
 */
export type ImageGenerationRequest = Core.DedicatedImageGenerationBody | Core.ContainerImageGenerationBody

/**
 * An image edit request: `image` (one `{ image }` or several, each a URL or a base64 `data:` URL) and `prompt`; a
 * dedicated endpoint's body or a container's, as for {@link ImageGenerationRequest}.
 *
 * @since 0.3.0
 */
export type ImageEditRequest = Core.DedicatedImageEditBody | Core.ContainerImageEditBody

/**
 * An image answer: a dedicated endpoint's `{ data: [{ url | b64_json, seed, response_format }] }` or a container's
 * `{ image }` (base64).
 *
 * @since 0.3.0
 */
export type ImagesResponse = Core.DedicatedImageGenerateSuccess | Core.ContainerImageGenerateSuccess

/**
 * `/v1/embeddings` (dedicated endpoints only): `create`. On a serverless or container client it fails with
 * `InvalidRequestError` without sending.
 *
 * @since 0.3.0
 */
export type Embeddings = EffectApi<Apis.Apis["embeddings"]>

/**
 * `/v1/images/generations` and `/v1/images/edits` (dedicated endpoints and containers): `generate` and `edit`. On a
 * serverless client they fail with `InvalidRequestError` without sending.
 *
 * @since 0.3.0
 */
export type Images = EffectApi<Apis.Apis["images"]>

/**
 * `/v1/responses` (OpenAI's Responses format): `stream` ends at `response.completed` or `response.incomplete`;
 * `response.failed` fails with `ApiError`, a cut stream with `StreamTruncated`. And `create`.
 *
 * @since 0.2.0
 */
export type Responses = EffectApi<Apis.Apis["responses"]>

/**
 * `/v1/messages` (Anthropic's Messages format, beta): `stream` ends at `message_stop`; `event: error` fails with
 * `ApiError`, a cut stream with `StreamTruncated`. And `create`.
 *
 * @since 0.2.0
 */
export type Messages = EffectApi<Apis.Apis["messages"]>

/**
 * `/v1/audio/transcriptions`: a `multipart/form-data` upload; `stream` ends at `transcript.text.done` + `[DONE]`
 * (a cut stream fails with `StreamTruncated`), `create` transcribes a whole file.
 *
 * @since 0.2.0
 */
export type Transcriptions = EffectApi<Apis.Apis["audio"]["transcriptions"]>

/**
 * The audio APIs.
 *
 * @since 0.2.0
 */
export type Audio = EffectApi<Apis.Apis["audio"]>

/**
 * `/v1/models` (serverless only): `list()` fails with `InvalidRequestError` (not sent) on a dedicated or container
 * client.
 *
 * @since 0.2.0
 */
export type Models = EffectApi<Apis.Apis["models"]>

/**
 * The Effect client of a table of APIs: its options, and the methods of each API.
 *
 * @since 0.3.0
 */
export type EffectClientOf<T> = { readonly options: ResolvedClientOptions } & EffectApi<T>

/**
 * The client service: `completions`, `chat`, `toolAssistedChat`, `responses`, `messages`, `audio.transcriptions`,
 * `models.list()`, `tokenize`, `detokenize`, `embeddings.create` and `images.generate` / `images.edit` (since
 * 0.3.0), each made from its entry in the table of APIs.
 *
 * @since 0.1.0
 */
export interface FriendliClient extends EffectClientOf<Apis.Apis> {}

/**
 * The tag of the client service.
 *
 * @since 0.1.0
 */
export const FriendliClient: Context.Service<FriendliClient, FriendliClient> = Context.Service<FriendliClient>(
  "@friendli-stream/stream/FriendliClient",
)

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
): FriendliClient => clientOf(options, http, apis, bodyOf)

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
