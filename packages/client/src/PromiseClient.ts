/**
 * The Promise facade of the Friendli client, for people who do not use Effect. Every runtime adapter's
 * `createClient(options)` is `makePromiseClient(itsHttpClientLayer, options)`.
 *
 * @example
 * const client = createClient({ token: process.env.FRIENDLI_TOKEN })
 * const stream = client.chat.stream({ model: "meta-llama-3.1-8b-instruct", messages: [{ role: "user", content: "Hi" }] })
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "")
 *
 * @since 0.1.0
 */

import type {
  CompatibleOptions,
  DecodeOptions,
  MessagesStream,
  ResponsesStream,
  StrictOptions,
  TranscriptionStream,
} from "@friendli-stream/stream"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Layer from "effect/Layer"
import type { ClientOptions, ResolvedClientOptions } from "./ClientOptions.ts"
import type * as Apis from "./internal/apis.ts"
import { apis } from "./internal/apis.ts"
import { promiseClientOf } from "./internal/clients.ts"
import type { AbortSignalLike, HeadersInitLike, WebReadableStream, WebResponse } from "./internal/globals.ts"
import { withOpenaiShape } from "./internal/openaiShape.ts"
import { errorResponse as makeErrorResponse } from "./internal/response.ts"

/**
 * An `AbortSignal`, typed structurally (any runtime's `AbortSignal` fits).
 *
 * @since 0.1.0
 */
export type AbortSignalInput = AbortSignalLike

/**
 * A `ReadableStream<Uint8Array>` as your program types it (the DOM or `@types/node` type).
 *
 * @since 0.1.0
 */
export type GlobalReadableStream = WebReadableStream

/**
 * A `Response` as your program types it (the DOM, `@types/node`, Deno, Bun or Workers type).
 *
 * @since 0.1.0
 */
export type HttpResponse = WebResponse

/**
 * Headers as `new Headers(init)` takes them: a `Headers`, a record, or name-value pairs.
 *
 * @since 0.1.0
 */
export type HeadersInput = HeadersInitLike

/**
 * Options of `toResponse()`: `headers` to add to the response, whether it streams or is an error (e.g. CORS).
 *
 * @since 0.1.0
 */
export interface StreamResponseInit {
  /** @since 0.1.0 */
  readonly headers?: HeadersInput | undefined
  /**
   * How long the response may send nothing before a `: keep-alive` comment goes out (default 15 000 ms; 0: never).
   * A first item that takes longer than this is waited for inside a `200` response.
   *
   * @since 0.3.0
   */
  readonly keepAliveMs?: number | undefined
}

/**
 * Options of one request: `signal` aborts it.
 *
 * @since 0.1.0
 */
export interface RequestOptions {
  /** @since 0.1.0 */
  readonly signal?: AbortSignalInput | undefined
}

/**
 * Options of one streamed request: `signal`, and the decoder's options (`validation`, `maxEventBytes`,
 * `requireDone`).
 *
 * @since 0.1.0
 */
export interface StreamOptions extends RequestOptions, DecodeOptions {}

/**
 * A streamed response. The request is sent when the handle is first read. Read it once, in one of four ways:
 * `for await` over its items, `finalCompletion()`, `toReadableStream()` or `toResponse()`; `finalCompletion()`
 * may also be awaited during or after a `for await`. `break`, `abort()` or the request's `signal` abort the
 * request and close the connection; so does cancelling the `ReadableStream` or the `Response`'s body.
 *
 * @since 0.1.0
 */
export interface StreamHandle<A, F> extends AsyncIterable<A> {
  /** The response the stream folds into (every item, delivered or not yet read). @since 0.1.0 */
  finalCompletion(): Promise<F>
  /** The stream re-encoded as server-sent events (`data: {json}` ... `data: [DONE]`; a failure as `event: error`). @since 0.1.0 */
  toReadableStream(): GlobalReadableStream
  /**
   * Answers an HTTP request with the stream: waits for the first item, then resolves to a `200 text/event-stream`
   * response (`SseResponse.HEADERS`: `cache-control: no-cache, no-transform`, `x-accel-buffering: no`) whose body is
   * `toReadableStream()`'s server-sent events, passed on as they arrive, from that item on, with a `: keep-alive`
   * comment whenever nothing went out for `init.keepAliveMs` (default 15 s); a failure after it is the body's last
   * event, `event: error`. A first item that takes longer than `keepAliveMs` is waited for inside the `200` (keep-alives
   * until it comes; a failure is then the body's `event: error`). A failure before the first item resolves to a JSON
   * error instead, `{ "error": { "message", "type", "code" } }` (`type`: the error
   * class, `code`: the upstream status or code), with a status that says whose fault it was:
   *
   * | failure before the first item                               | status                                   |
   * | ----------------------------------------------------------- | ---------------------------------------- |
   * | upstream 400, 404, 422 or 429 (the request's fault)         | the same, with its `Retry-After`         |
   * | `InvalidRequestError` (fails the schema, never sent)        | 400                                      |
   * | `TimeoutError`                                              | 504                                      |
   * | upstream 401, 403 (the server's credentials), 5xx, other    | 502                                      |
   * | `ConnectionError`; a stream that broke or reported an error | 502 (an in-stream 400/404/422/429: that) |
   *
   * Cancelling the response's body (the client went away) aborts the request. `init.headers` are added to
   * either response (e.g. CORS headers).
   *
   * @example
   * // Deno.serve, Bun.serve, a Worker's fetch: the completion, streamed to whoever asked for it
   * const handler = (request: Request) =>
   *   client.completions.stream({ model, prompt: "Hi" }, { signal: request.signal }).toResponse()
   *
   * @since 0.1.0
   */
  toResponse(init?: StreamResponseInit): Promise<HttpResponse>
  /** Aborts the request; a pending or later read throws `reason` (an `AbortError` by default). @since 0.1.0 */
  abort(reason?: unknown): void
  /** Whether the request was aborted. @since 0.1.0 */
  readonly aborted: boolean
}

/**
 * A stream's failure before its first item as the JSON error `toResponse()` answers with, for a service that reads
 * the stream itself (e.g. peeks at its first item, then stores it): `{ "error": { "message", "type", "code" } }`
 * with the status that says whose fault it was (the table of `toResponse()`), and `Retry-After` when passed on.
 *
 * @example
 * const iterator = handle[Symbol.asyncIterator]()
 * try {
 *   await iterator.next()
 * } catch (error) {
 *   return errorResponse(error)
 * }
 *
 * @since 0.3.0
 */
export const errorResponse = (error: unknown, init?: StreamResponseInit): HttpResponse =>
  makeErrorResponse(error, init?.headers)

/**
 * The handle a Promise stream returns: a {@link StreamHandle}, or the API's own handle with its name for
 * `finalCompletion()` (`finalResponse`, `finalMessage`, `finalTranscript`).
 *
 * @since 0.3.0
 */
export type HandleOf<A, F, K> = K extends "finalResponse"
  ? ResponsesStreamHandle<A>
  : K extends "finalMessage"
    ? MessagesStreamHandle<A>
    : K extends "finalTranscript"
      ? TranscriptionStreamHandle<A>
      : StreamHandle<A, F>

/**
 * The Promise methods of one streamed API: `stream` (strict items by default, compatible ones with
 * `{ validation: "compatible" }`), and `create` when the API has a non-streamed form.
 *
 * @since 0.3.0
 */
export interface PromiseStreamMethods<Req, S, C, F, K> {
  /** Streams the API's items, decoded with the strict Friendli schemas. @since 0.3.0 */
  stream(request: Req, options?: StreamOptions & StrictOptions): HandleOf<S, F, K>
  /** Streams the API's items from a compatible server, decoded leniently. @since 0.3.0 */
  stream(request: Req, options: StreamOptions & CompatibleOptions): HandleOf<C, F, K>
  /** Streams the API's items, with the validation chosen at run time. @since 0.3.0 */
  stream(request: Req, options?: StreamOptions): HandleOf<S | C, F, K>
}

/**
 * A request that asks for a stream (`stream: true`): `create` answers it with the stream's handle.
 *
 * @since 0.3.0
 */
export type StreamingRequest<Req> = Req & { readonly stream: true }

/**
 * A request that asks for the whole answer (`stream` absent, `false` or `null`).
 *
 * @since 0.3.0
 */
export type WholeRequest<Req> = Req & { readonly stream?: false | null | undefined }

/**
 * The non-streamed form of an API, with Promises, shaped as the openai SDK's `create`: `stream: true` in the request
 * returns the stream's handle (as `stream()` does), without it the whole answer. A `stream: true` request never
 * answers with a whole response.
 *
 * @since 0.3.0
 */
export interface PromiseCreateMethod<Req, S, C, F, R, K> {
  /** Streams the API's items (`stream: true`), decoded with the strict Friendli schemas. @since 0.3.0 */
  create(request: StreamingRequest<Req>, options?: StreamOptions & StrictOptions): HandleOf<S, F, K>
  /** Streams the API's items (`stream: true`) from a compatible server, decoded leniently. @since 0.3.0 */
  create(request: StreamingRequest<Req>, options: StreamOptions & CompatibleOptions): HandleOf<C, F, K>
  /** Asks for the whole answer (`stream: false`). @since 0.3.0 */
  create(request: WholeRequest<Req>, options?: RequestOptions): Promise<R>
  /** A stream or the whole answer, as `stream` says at run time. @since 0.3.0 */
  create(
    request: Req & { readonly stream?: boolean | null | undefined },
    options?: StreamOptions,
  ): HandleOf<S | C, F, K> | Promise<R>
}

/**
 * The Promise methods of one entry of the table of APIs, or of a group of them.
 *
 * @since 0.3.0
 */
export type PromiseApi<Entry> =
  Entry extends Apis.Streamed<infer Req, infer S, infer C, infer F, infer R, infer K>
    ? PromiseStreamMethods<Req, S, C, F, K> & ([R] extends [never] ? unknown : PromiseCreateMethod<Req, S, C, F, R, K>)
    : Entry extends Apis.Plain<infer Req, infer R>
      ? [Req] extends [undefined]
        ? (options?: RequestOptions) => Promise<R>
        : (request: Req, options?: RequestOptions) => Promise<R>
      : { readonly [K in keyof Entry]: PromiseApi<Entry[K]> }

/**
 * `/v1/completions`, with Promises.
 *
 * @since 0.1.0
 */
export type PromiseCompletions = PromiseApi<Apis.Apis["completions"]>

/**
 * `/v1/chat/completions`, with Promises; `chat.completions.create` is `chat.create` under the openai SDK's name.
 *
 * @since 0.1.0
 */
export type PromiseChat = PromiseApi<Apis.Apis["chat"]> & {
  /** The openai SDK's path to the same API: `client.chat.completions.create(...)`. @since 0.3.0 */
  readonly completions: Pick<PromiseApi<Apis.Apis["chat"]>, "create">
}

/**
 * `/tools/v1/chat/completions`, with Promises; `finalCompletion()` folds the chat chunks.
 *
 * @since 0.1.0
 */
export type PromiseToolAssistedChat = PromiseApi<Apis.Apis["toolAssistedChat"]>

/**
 * A streamed Responses response: a {@link StreamHandle} whose events re-encode as `event: TYPE` + `data: {json}`
 * (no `[DONE]`), with `finalResponse()`.
 *
 * @since 0.2.0
 */
export interface ResponsesStreamHandle<A> extends StreamHandle<A, ResponsesStream.Response> {
  /**
   * The response the stream folds into (`ResponsesStream.accumulate`); rejects with the stream's failure, or with
   * `ToolInputError` when a function call's arguments are not JSON.
   *
   * @since 0.2.0
   */
  finalResponse(): Promise<ResponsesStream.Response>
}

/**
 * A streamed message: a {@link StreamHandle} whose events re-encode as `event: TYPE` + `data: {json}` (no
 * `[DONE]`), with `finalMessage()`.
 *
 * @since 0.2.0
 */
export interface MessagesStreamHandle<A> extends StreamHandle<A, MessagesStream.Message> {
  /**
   * The message the stream folds into (`MessagesStream.accumulate`); rejects with the stream's failure, or with
   * `ToolInputError` when a tool use's input is not JSON.
   *
   * @since 0.2.0
   */
  finalMessage(): Promise<MessagesStream.Message>
}

/**
 * A streamed transcript: a {@link StreamHandle} whose events re-encode as `data: {json}` then `data: [DONE]`, with
 * `finalTranscript()`.
 *
 * @since 0.2.0
 */
export interface TranscriptionStreamHandle<A> extends StreamHandle<A, TranscriptionStream.Transcript> {
  /** The transcript the stream folds into (`TranscriptionStream.accumulate`). @since 0.2.0 */
  finalTranscript(): Promise<TranscriptionStream.Transcript>
}

/**
 * `/v1/responses`, with Promises.
 *
 * @since 0.2.0
 */
export type PromiseResponses = PromiseApi<Apis.Apis["responses"]>

/**
 * `/v1/messages`, with Promises.
 *
 * @since 0.2.0
 */
export type PromiseMessages = PromiseApi<Apis.Apis["messages"]>

/**
 * `/v1/audio/transcriptions`, with Promises: a `multipart/form-data` upload of a `File`, a `Blob` or bytes.
 *
 * @since 0.2.0
 */
export type PromiseTranscriptions = PromiseApi<Apis.Apis["audio"]["transcriptions"]>

/**
 * The audio APIs, with Promises.
 *
 * @since 0.2.0
 */
export type PromiseAudio = PromiseApi<Apis.Apis["audio"]>

/**
 * `/v1/models` (serverless only), with Promises: `list()` rejects with `InvalidRequestError` on other deployments.
 *
 * @since 0.2.0
 */
export type PromiseModels = PromiseApi<Apis.Apis["models"]>

/**
 * The Promise client of a table of APIs: its options, `close()`, and the methods of each API.
 *
 * @since 0.3.0
 */
export type PromiseClientOf<T> = {
  /** The options in force. @since 0.1.0 */
  readonly options: ResolvedClientOptions
  /** Closes the client: in-flight requests are aborted and pooled connections closed. @since 0.1.0 */
  close(): Promise<void>
} & PromiseApi<T>

/**
 * The Promise client: `completions`, `chat`, `toolAssistedChat`, `responses`, `messages`, `audio.transcriptions`,
 * `models.list()`, `tokenize` and `detokenize`, each made from its entry in the table of APIs, and `close()`. It is
 * also shaped as the openai SDK's client: `chat.completions.create`, `completions.create` (and `responses.create`,
 * `audio.transcriptions.create`, `models.list`), `stream: true` answering with a stream, `apiKey`, a `baseURL`
 * ending in `/v1`.
 *
 * @since 0.1.0
 */
export interface PromiseClient extends PromiseClientOf<Apis.Apis> {
  /** `/v1/chat/completions`, also as `chat.completions.create`. @since 0.1.0 */
  readonly chat: PromiseChat
}

/**
 * Makes the Promise client on an `HttpClient` layer; throws `ClientConfigError` for options that cannot work.
 *
 * @since 0.1.0
 */
export const makePromiseClient = (
  httpClient: Layer.Layer<HttpClient.HttpClient>,
  options: ClientOptions = {},
): PromiseClient => withOpenaiShape(promiseClientOf(httpClient, options, apis))
