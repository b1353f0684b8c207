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

import type * as Core from "@friendli-stream/core"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import * as ChatCompletionStream from "./ChatCompletionStream.ts"
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from "./ClientOptions.ts"
import * as CompletionStream from "./CompletionStream.ts"
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "./DecodeOptions.ts"
import * as FriendliClient from "./FriendliClient.ts"
import type { AbortSignalLike, HeadersInitLike, WebReadableStream, WebResponse } from "./internal/client/globals.ts"
import type { Accumulator } from "./internal/client/handle.ts"
import { EffectStreamHandle, runOrThrow } from "./internal/client/handle.ts"
import { type SseEncoding, TRANSCRIPTION_ENCODING, TYPED_ENCODING } from "./internal/client/sse.ts"
import * as MessagesStream from "./MessagesStream.ts"
import { ResponseBody } from "./ResponseBody.ts"
import * as ResponsesStream from "./ResponsesStream.ts"
import type { ToolAssistedChatEvent } from "./ToolAssistedChatStream.ts"
import * as TranscriptionStream from "./TranscriptionStream.ts"

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
   * response (`cache-control: no-cache`) whose body is `toReadableStream()`'s server-sent events, passed on as they
   * arrive, from that item on; a failure after it is the body's last event, `event: error`. A failure before the
   * first item resolves to a JSON error instead, `{ "error": { "message", "type", "code" } }` (`type`: the error
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
 * `/v1/completions`, with Promises.
 *
 * @since 0.1.0
 */
export interface PromiseCompletions {
  /** @since 0.1.0 */
  stream(
    request: Core.CompletionRequest,
    options?: StreamOptions & StrictOptions,
  ): StreamHandle<CompletionStream.CompletionChunk, CompletionStream.Completion>
  /** @since 0.1.0 */
  stream(
    request: Core.CompletionRequest,
    options: StreamOptions & CompatibleOptions,
  ): StreamHandle<CompletionStream.CompatibleCompletionChunk, CompletionStream.Completion>
  /** @since 0.1.0 */
  create(request: Core.CompletionRequest, options?: RequestOptions): Promise<Core.CompletionResponse>
}

/**
 * `/v1/chat/completions`, with Promises.
 *
 * @since 0.1.0
 */
export interface PromiseChat {
  /** @since 0.1.0 */
  stream(
    request: Core.ChatCompletionRequest,
    options?: StreamOptions & StrictOptions,
  ): StreamHandle<ChatCompletionStream.ChatCompletionChunk, ChatCompletionStream.ChatCompletion>
  /** @since 0.1.0 */
  stream(
    request: Core.ChatCompletionRequest,
    options: StreamOptions & CompatibleOptions,
  ): StreamHandle<ChatCompletionStream.CompatibleChatCompletionChunk, ChatCompletionStream.ChatCompletion>
  /** @since 0.1.0 */
  create(request: Core.ChatCompletionRequest, options?: RequestOptions): Promise<Core.ChatCompletionResponse>
}

/**
 * `/tools/v1/chat/completions`, with Promises; `finalCompletion()` folds the chat chunks.
 *
 * @since 0.1.0
 */
export interface PromiseToolAssistedChat {
  /** @since 0.1.0 */
  stream(
    request: Core.ToolAssistedChatCompletionRequest,
    options?: StreamOptions,
  ): StreamHandle<ToolAssistedChatEvent, ChatCompletionStream.ChatCompletion>
}

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
export interface PromiseResponses {
  /** @since 0.2.0 */
  stream(
    request: FriendliClient.ResponsesRequest,
    options?: StreamOptions & StrictOptions,
  ): ResponsesStreamHandle<ResponsesStream.ResponsesStreamEvent>
  /** @since 0.2.0 */
  stream(
    request: FriendliClient.ResponsesRequest,
    options: StreamOptions & CompatibleOptions,
  ): ResponsesStreamHandle<ResponsesStream.CompatibleResponsesStreamEvent>
  /** Asks for a whole response (`stream: false`). @since 0.2.0 */
  create(request: FriendliClient.ResponsesRequest, options?: RequestOptions): Promise<Core.ResponsesSuccess>
}

/**
 * `/v1/messages`, with Promises.
 *
 * @since 0.2.0
 */
export interface PromiseMessages {
  /** @since 0.2.0 */
  stream(
    request: FriendliClient.MessagesRequest,
    options?: StreamOptions & StrictOptions,
  ): MessagesStreamHandle<MessagesStream.MessagesStreamEvent>
  /** @since 0.2.0 */
  stream(
    request: FriendliClient.MessagesRequest,
    options: StreamOptions & CompatibleOptions,
  ): MessagesStreamHandle<MessagesStream.CompatibleMessagesStreamEvent>
  /** Asks for a whole message (`stream: false`). @since 0.2.0 */
  create(request: FriendliClient.MessagesRequest, options?: RequestOptions): Promise<Core.ServerlessMessagesSuccess>
}

/**
 * `/v1/audio/transcriptions`, with Promises: a `multipart/form-data` upload of a `File`, a `Blob` or bytes.
 *
 * @since 0.2.0
 */
export interface PromiseTranscriptions {
  /** @since 0.2.0 */
  stream(
    request: FriendliClient.TranscriptionRequest,
    options?: StreamOptions & StrictOptions,
  ): TranscriptionStreamHandle<TranscriptionStream.TranscriptionStreamEvent>
  /** @since 0.2.0 */
  stream(
    request: FriendliClient.TranscriptionRequest,
    options: StreamOptions & CompatibleOptions,
  ): TranscriptionStreamHandle<TranscriptionStream.CompatibleTranscriptionStreamEvent>
  /** Transcribes a whole file (`stream: false`). @since 0.2.0 */
  create(request: FriendliClient.TranscriptionRequest, options?: RequestOptions): Promise<Core.AudioTranscriptionResult>
}

/**
 * The audio APIs, with Promises.
 *
 * @since 0.2.0
 */
export interface PromiseAudio {
  /** @since 0.2.0 */
  readonly transcriptions: PromiseTranscriptions
}

/**
 * `/v1/models` (serverless only), with Promises.
 *
 * @since 0.2.0
 */
export interface PromiseModels {
  /** Lists the serverless models; rejects with `InvalidRequestError` on other deployments. @since 0.2.0 */
  list(options?: RequestOptions): Promise<Core.ServerlessModelListSuccess>
}

/**
 * The Promise client.
 *
 * @since 0.1.0
 */
export interface PromiseClient {
  /** The options in force. @since 0.1.0 */
  readonly options: ResolvedClientOptions
  /** @since 0.1.0 */
  readonly completions: PromiseCompletions
  /** @since 0.1.0 */
  readonly chat: PromiseChat
  /** @since 0.1.0 */
  readonly toolAssistedChat: PromiseToolAssistedChat
  /** @since 0.2.0 */
  readonly responses: PromiseResponses
  /** @since 0.2.0 */
  readonly messages: PromiseMessages
  /** @since 0.2.0 */
  readonly audio: PromiseAudio
  /** @since 0.2.0 */
  readonly models: PromiseModels
  /** Converts text into the model's token ids (`/v1/tokenize`). @since 0.2.0 */
  tokenize(
    request: FriendliClient.TokenizeRequest,
    options?: RequestOptions,
  ): Promise<Core.ServerlessTokenizationSuccess>
  /** Converts token ids back into text (`/v1/detokenize`). @since 0.2.0 */
  detokenize(
    request: FriendliClient.DetokenizeRequest,
    options?: RequestOptions,
  ): Promise<Core.ServerlessDetokenizationSuccess>
  /** Closes the client: in-flight requests are aborted and pooled connections closed. @since 0.1.0 */
  close(): Promise<void>
}

const toolAssistedAccumulator = (): Accumulator<ToolAssistedChatEvent, ChatCompletionStream.ChatCompletion> => {
  const acc = ChatCompletionStream.accumulator()
  return {
    add: (event) => (event._tag === "Chunk" ? acc.add(event.chunk) : acc),
    result: () => acc.result(),
  }
}

/**
 * An accumulator whose failure to fold an item (e.g. arguments that are not JSON) does not stop the iteration: it
 * is thrown by `result()`, so the final response rejects with it.
 */
const deferredFailure = <A, F>(acc: { add(item: A): unknown; result(): F }): Accumulator<A, F> => {
  let failure: { readonly error: unknown } | undefined
  return {
    add: (item) => {
      if (failure !== undefined) return
      try {
        acc.add(item)
      } catch (error) {
        failure = { error }
      }
    },
    result: () => {
      if (failure !== undefined) throw failure.error
      return acc.result()
    },
  }
}

/**
 * Makes the Promise client on an `HttpClient` layer; throws `ClientConfigError` for options that cannot work.
 *
 * @since 0.1.0
 */
export const makePromiseClient = (
  httpClient: Layer.Layer<HttpClient.HttpClient>,
  options: ClientOptions = {},
): PromiseClient => {
  const resolved = resolveClientOptions(options)
  const runtime = ManagedRuntime.make(
    Layer.provide(
      Layer.effect(
        FriendliClient.FriendliClient,
        Effect.flatMap(HttpClient.HttpClient, (http) =>
          Effect.map(ResponseBody, (bodyOf) => FriendliClient.fromHttpClient(resolved, http, bodyOf)),
        ),
      ),
      httpClient,
    ),
  )
  const handle = <A, E, F>(
    stream: (client: FriendliClient.FriendliClient) => Stream.Stream<A, E>,
    acc: Accumulator<A, F>,
    signal: AbortSignalInput | undefined,
    encoding?: SseEncoding,
  ): EffectStreamHandle<A, E, FriendliClient.FriendliClient, F> =>
    new EffectStreamHandle(
      runtime,
      Stream.unwrap(Effect.map(FriendliClient.FriendliClient, stream)),
      acc,
      signal,
      encoding,
    )
  const run = <A, E>(
    effect: (client: FriendliClient.FriendliClient) => Effect.Effect<A, E>,
    signal: AbortSignalInput | undefined,
  ): Promise<A> => runOrThrow(runtime, Effect.flatMap(FriendliClient.FriendliClient, effect), signal)
  const decodeOptions = (o: StreamOptions | undefined): DecodeOptions | undefined => {
    if (o === undefined) return undefined
    const { signal: _signal, ...rest } = o
    return rest
  }
  return {
    options: resolved,
    completions: {
      stream: (request: Core.CompletionRequest, o?: StreamOptions) =>
        handle(
          (c) => c.completions.stream(request, decodeOptions(o) as StrictOptions),
          CompletionStream.accumulator(),
          o?.signal,
        ),
      create: (request: Core.CompletionRequest, o?: RequestOptions) =>
        run((c) => c.completions.create(request), o?.signal),
    } as PromiseCompletions,
    chat: {
      stream: (request: Core.ChatCompletionRequest, o?: StreamOptions) =>
        handle(
          (c) => c.chat.stream(request, decodeOptions(o) as StrictOptions),
          ChatCompletionStream.accumulator(),
          o?.signal,
        ),
      create: (request: Core.ChatCompletionRequest, o?: RequestOptions) =>
        run((c) => c.chat.create(request), o?.signal),
    } as PromiseChat,
    toolAssistedChat: {
      stream: (request, o) =>
        handle((c) => c.toolAssistedChat.stream(request, decodeOptions(o)), toolAssistedAccumulator(), o?.signal),
    },
    responses: {
      stream: (request: FriendliClient.ResponsesRequest, o?: StreamOptions) => {
        const h = handle(
          (c) => c.responses.stream(request, decodeOptions(o) as StrictOptions),
          deferredFailure(ResponsesStream.accumulator()),
          o?.signal,
          TYPED_ENCODING,
        )
        return Object.assign(h, { finalResponse: () => h.finalCompletion() })
      },
      create: (request: FriendliClient.ResponsesRequest, o?: RequestOptions) =>
        run((c) => c.responses.create(request), o?.signal),
    } as PromiseResponses,
    messages: {
      stream: (request: FriendliClient.MessagesRequest, o?: StreamOptions) => {
        const h = handle(
          (c) => c.messages.stream(request, decodeOptions(o) as StrictOptions),
          deferredFailure(MessagesStream.accumulator()),
          o?.signal,
          TYPED_ENCODING,
        )
        return Object.assign(h, { finalMessage: () => h.finalCompletion() })
      },
      create: (request: FriendliClient.MessagesRequest, o?: RequestOptions) =>
        run((c) => c.messages.create(request), o?.signal),
    } as PromiseMessages,
    audio: {
      transcriptions: {
        stream: (request: FriendliClient.TranscriptionRequest, o?: StreamOptions) => {
          const h = handle(
            (c) => c.audio.transcriptions.stream(request, decodeOptions(o) as StrictOptions),
            TranscriptionStream.accumulator(),
            o?.signal,
            TRANSCRIPTION_ENCODING,
          )
          return Object.assign(h, { finalTranscript: () => h.finalCompletion() })
        },
        create: (request: FriendliClient.TranscriptionRequest, o?: RequestOptions) =>
          run((c) => c.audio.transcriptions.create(request), o?.signal),
      } as PromiseTranscriptions,
    },
    models: {
      list: (o) => run((c) => c.models.list(), o?.signal),
    },
    tokenize: (request, o) => run((c) => c.tokenize(request), o?.signal),
    detokenize: (request, o) => run((c) => c.detokenize(request), o?.signal),
    close: () => runtime.dispose(),
  }
}
