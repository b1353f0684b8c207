/**
 * The table of APIs, the client's half: for each API, its endpoint (per deployment kind), the decoder's entry of a
 * streamed API (`@friendli-stream/stream`'s table: codecs, end, accumulator), the check of its non-streamed answer,
 * and how a Promise handle re-encodes its items. The Effect client (`FriendliClient`), the Promise client and their
 * types are made from this table; a new API is one entry here (and, when it streams, one in the decoder's table).
 */
import type * as Core from "@friendli-stream/core"
import type { DecodeOptions } from "@friendli-stream/stream"
import { bodyPull, codecOf, jsonTransform, type StreamApi, StreamApis } from "@friendli-stream/stream/internal"
import * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import { InvalidRequestError } from "../ClientError.ts"
import type { ResolvedClientOptions } from "../ClientOptions.ts"
import type {
  DetokenizeRequest,
  EmbeddingsRequest,
  ImageEditRequest,
  ImageGenerationRequest,
  MessagesRequest,
  ResponsesRequest,
  TokenizeRequest,
  TranscriptionRequest,
} from "../FriendliClient.ts"
import { EMBEDDINGS_DEPLOYMENTS, embeddings, embeddingsResponse } from "./embeddings.ts"
import type { Decode, Engine, ResponseSpec } from "./engine.ts"
import { IMAGES_DEPLOYMENTS, type ImageEndpoints, imageEndpointsFor, imagesResponse } from "./images.ts"
import { asksForStream } from "./openaiShape.ts"
import * as Requests from "./request.ts"
import * as Specs from "./specs.ts"
import { CHAT_ENCODING, type SseEncoding, TRANSCRIPTION_ENCODING, TYPED_ENCODING } from "./sseEncoding.ts"

/** Every endpoint of one deployment kind. */
export interface Endpoints extends Requests.Endpoints, ImageEndpoints {
  readonly embeddings: Requests.Endpoint
  readonly completions: Requests.Endpoint
  readonly chat: Requests.Endpoint
  readonly toolAssistedChat: Requests.Endpoint
}

/** The name a Promise handle gives its final value: `finalCompletion()`, or one more (e.g. `finalResponse()`). */
export type FinalName = "finalCompletion" | "finalResponse" | "finalMessage" | "finalTranscript"

/**
 * A streamed API (`stream`, and `create` when it has a non-streamed form). `Req`: its request, `S` / `C` / `F`:
 * its strict items, compatible items and final value (the decoder's entry), `R`: the non-streamed answer (`never`:
 * none), `K`: the Promise handle's name for its final value.
 */
export interface Streamed<Req, S, C, F, R, K extends FinalName> {
  readonly _tag: "Streamed"
  readonly decoder: StreamApi<S, C, F>
  readonly endpoint: (endpoints: Endpoints) => Requests.Endpoint
  /** The check of the non-streamed answer; `undefined`: the API has no `create`. */
  readonly response: ResponseSpec<R> | undefined
  readonly encoding: SseEncoding
  readonly final: K
  /** Carries the types that nothing at run time holds (never set). */
  readonly types?: { readonly request: Req; readonly answer: R } | undefined
}

/** A plain API: one request, one answer. `Req` is `undefined` for an API that takes none (`models.list()`). */
export interface Plain<Req, R> {
  readonly _tag: "Plain"
  readonly endpoint: (endpoints: Endpoints) => Requests.Endpoint
  readonly response: ResponseSpec<R>
  /** Whether the method takes a request. */
  readonly takesRequest: boolean
  /** The method's name when only serverless deployments have it (it fails without sending elsewhere). */
  readonly serverlessOnly?: string | undefined
  /** The deployment kinds that have the API, when not all do (it fails without sending elsewhere). */
  readonly deployments?: Deployments | undefined
  /** Carries the request type (never set). */
  readonly types?: { readonly request: Req } | undefined
}

/** The deployment kinds that have an API, its method's name, and what a call elsewhere is told it needs. */
export interface Deployments {
  readonly kinds: ReadonlyArray<Core.DeploymentKind>
  readonly method: string
  readonly needs: string
}

/** A table: APIs, and groups of them (`audio.transcriptions`, `models.list`). */
export interface Table {
  readonly [name: string]: AnyStreamed | AnyPlain | Table
}

/** Any streamed entry, whatever its types. */
export type AnyStreamed = Streamed<unknown, unknown, unknown, unknown, unknown, FinalName>
/** Any plain entry, whatever its types. */
export type AnyPlain = Plain<unknown, unknown>

/**
 * A streamed API's entry: `streamed<Request>()({ decoder, endpoint, ... })`. Without a `response`, the API has no
 * `create`; without a `final`, its Promise handle's final value is `finalCompletion()` only.
 */
export const streamed =
  <Req>() =>
  <S, C, F, R = never, K extends FinalName = "finalCompletion">(entry: {
    readonly decoder: StreamApi<S, C, F>
    readonly endpoint: (endpoints: Endpoints) => Requests.Endpoint
    readonly response?: ResponseSpec<R> | undefined
    readonly encoding?: SseEncoding | undefined
    readonly final?: K | undefined
  }): Streamed<Req, S, C, F, AnswerOf<R>, FinalOf<K>> =>
    // R and K are what the entry gives; when it gives none, TypeScript infers `unknown` and the constraint, which
    // AnswerOf and FinalOf read as "no create" and "finalCompletion() only".
    ({
      _tag: "Streamed",
      decoder: entry.decoder,
      endpoint: entry.endpoint,
      response: entry.response,
      encoding: entry.encoding ?? CHAT_ENCODING,
      final: entry.final ?? "finalCompletion",
    }) as Streamed<Req, S, C, F, AnswerOf<R>, FinalOf<K>>

/** The answer of an entry: `never` (no `create`) when the entry gave no `response`. */
type AnswerOf<R> = unknown extends R ? never : R

/** The final value's name of an entry: `finalCompletion` when the entry gave none. */
type FinalOf<K extends FinalName> = FinalName extends K ? "finalCompletion" : K

/** A plain API's entry: `plain<Request>()({ endpoint, response })` (`plain<undefined>()` for one without a request). */
export const plain =
  <Req>() =>
  <R>(entry: {
    readonly endpoint: (endpoints: Endpoints) => Requests.Endpoint
    readonly response: ResponseSpec<R>
    readonly serverlessOnly?: string | undefined
    readonly deployments?: Deployments | undefined
    /** Default `true`; `false` for `plain<undefined>()`. */
    readonly takesRequest?: boolean | undefined
  }): Plain<Req, R> => ({
    _tag: "Plain",
    endpoint: entry.endpoint,
    response: entry.response,
    takesRequest: entry.takesRequest ?? true,
    serverlessOnly: entry.serverlessOnly,
    deployments: entry.deployments,
  })

/** Friendli's APIs. */
export const apis = {
  completions: streamed<Core.CompletionRequest>()({
    decoder: StreamApis.completions,
    endpoint: (e) => e.completions,
    response: Specs.completionResponse,
  }),
  chat: streamed<Core.ChatCompletionRequest>()({
    decoder: StreamApis.chat,
    endpoint: (e) => e.chat,
    response: Specs.chatResponse,
  }),
  toolAssistedChat: streamed<Core.ToolAssistedChatCompletionRequest>()({
    decoder: StreamApis.toolAssistedChat,
    endpoint: (e) => e.toolAssistedChat,
  }),
  responses: streamed<ResponsesRequest>()({
    decoder: StreamApis.responses,
    endpoint: (e) => e.responses,
    response: Specs.responsesResponse,
    encoding: TYPED_ENCODING,
    final: "finalResponse",
  }),
  messages: streamed<MessagesRequest>()({
    decoder: StreamApis.messages,
    endpoint: (e) => e.messages,
    response: Specs.messagesResponse,
    encoding: TYPED_ENCODING,
    final: "finalMessage",
  }),
  audio: {
    transcriptions: streamed<TranscriptionRequest>()({
      decoder: StreamApis.transcriptions,
      endpoint: (e) => e.transcriptions,
      response: Specs.transcriptionResponse,
      encoding: TRANSCRIPTION_ENCODING,
      final: "finalTranscript",
    }),
  },
  models: {
    list: plain<undefined>()({
      endpoint: (e) => e.models,
      response: Specs.modelsResponse,
      serverlessOnly: "models.list()",
      takesRequest: false,
    }),
  },
  tokenize: plain<TokenizeRequest>()({ endpoint: (e) => e.tokenize, response: Specs.tokenizeResponse }),
  detokenize: plain<DetokenizeRequest>()({ endpoint: (e) => e.detokenize, response: Specs.detokenizeResponse }),
  embeddings: {
    create: plain<EmbeddingsRequest>()({
      endpoint: (e) => e.embeddings,
      response: embeddingsResponse,
      deployments: { ...EMBEDDINGS_DEPLOYMENTS, method: "embeddings.create()" },
    }),
  },
  images: {
    generate: plain<ImageGenerationRequest>()({
      endpoint: (e) => e.imageGenerations,
      response: imagesResponse,
      deployments: { ...IMAGES_DEPLOYMENTS, method: "images.generate()" },
    }),
    edit: plain<ImageEditRequest>()({
      endpoint: (e) => e.imageEdits,
      response: imagesResponse,
      deployments: { ...IMAGES_DEPLOYMENTS, method: "images.edit()" },
    }),
  },
} satisfies Table

/** The table of Friendli's APIs, as a type. */
export type Apis = typeof apis

/** How the client decodes one API's body, with the codec that `validation` chooses. */
const decoderOf =
  <S, C, F>(api: StreamApi<S, C, F>) =>
  (options: DecodeOptions | undefined): Decode<S | C> => ({
    body: (body, readError, idle) => bodyPull(body, (o) => codecOf(api, o), options, readError, idle, api.end),
    bytes: (bytes, idle) => jsonTransform(bytes, (o) => codecOf(api, o), options, idle, api.end),
  })

const isEntry = (value: AnyStreamed | AnyPlain | Table): value is AnyStreamed | AnyPlain =>
  value._tag === "Streamed" || value._tag === "Plain"

/** The Effect methods of one entry. */
const effectMethods = (
  entry: AnyStreamed | AnyPlain,
  engine: Engine,
  endpoints: Endpoints,
  options: ResolvedClientOptions,
): unknown => {
  const endpoint = entry.endpoint(endpoints)
  if (entry._tag === "Plain") {
    if (entry.serverlessOnly !== undefined && options.deployment !== "serverless") {
      const failure = Effect.fail(
        new InvalidRequestError({
          message: `${entry.serverlessOnly} is a serverless API; this client's deployment is ${options.deployment}, so nothing was sent.`,
          explanation: `deployment is ${options.deployment}, not serverless`,
        }),
      )
      return () => failure
    }
    const only = entry.deployments
    if (only !== undefined && !only.kinds.includes(options.deployment)) {
      const failure = Effect.fail(
        new InvalidRequestError({
          message: `${only.method}: ${only.needs}; this client's deployment is ${options.deployment}, so nothing was sent.`,
          explanation: `deployment is ${options.deployment}, not ${only.kinds.join(" or ")}`,
        }),
      )
      return () => failure
    }
    return (request?: unknown) => engine.create(endpoint, request, entry.response)
  }
  const decode = decoderOf(entry.decoder)
  const stream = (request: unknown, decodeOptions?: DecodeOptions): Stream.Stream<unknown, unknown> =>
    engine.stream(endpoint, request, decode(decodeOptions))
  const response = entry.response
  return response === undefined
    ? { stream }
    : {
        stream,
        create: (request: unknown) =>
          asksForStream(request)
            ? Effect.fail(streamInCreate(endpoint.name))
            : engine.create(endpoint, request, response),
      }
}

/** The Effect `create` refuses `stream: true` (a stream is not an `Effect`): `stream()` is the method for it. */
const streamInCreate = (name: string): InvalidRequestError =>
  new InvalidRequestError({
    message: `The ${name} request asks for a stream (stream: true), which create() cannot return, so it was not sent; call stream(request) instead.`,
    explanation: "stream: true in a create() request",
  })

const endpointsByKind = new Map<Core.DeploymentKind, Endpoints>()

/** The endpoints of a deployment kind (made once per kind). */
export const endpointsOf = (kind: Core.DeploymentKind): Endpoints => {
  let endpoints = endpointsByKind.get(kind)
  if (endpoints === undefined) {
    endpoints = {
      ...Requests.endpointsFor(kind),
      completions: Requests.completions,
      chat: Requests.chat,
      toolAssistedChat: Requests.toolAssistedChat,
      embeddings,
      ...imageEndpointsFor(kind),
    }
    endpointsByKind.set(kind, endpoints)
  }
  return endpoints
}

/** The Effect methods of every API of a table (typed by `EffectClientOf` in `FriendliClient.ts`). */
export const effectClientOf = (table: Table, engine: Engine, options: ResolvedClientOptions): unknown => {
  const endpoints = endpointsOf(options.deployment)
  const walk = (t: Table): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(t)) {
      out[name] = isEntry(value) ? effectMethods(value, engine, endpoints, options) : walk(value)
    }
    return out
  }
  return walk(table)
}

/** What the Promise methods of an entry need: how to run a stream or an effect of the Effect client. */
export interface PromiseRunner {
  readonly stream: (
    entry: AnyStreamed,
    stream: (client: unknown) => Stream.Stream<unknown, unknown>,
    options: { readonly signal?: unknown } | undefined,
  ) => unknown
  readonly run: (
    effect: (client: unknown) => Effect.Effect<unknown, unknown>,
    options: { readonly signal?: unknown } | undefined,
  ) => Promise<unknown>
}

/** The decoder's options among a Promise stream's options (all but `signal`). */
const decodeOptionsOf = (o: { readonly signal?: unknown } | undefined): DecodeOptions | undefined => {
  if (o === undefined) return undefined
  const { signal: _signal, ...rest } = o
  return rest
}

type AnyMethods = {
  readonly stream: (request: unknown, options?: DecodeOptions) => Stream.Stream<unknown, unknown>
  readonly create: (request: unknown) => Effect.Effect<unknown, unknown>
}

/** The Promise methods of every API of a table (typed by `PromiseClientOf` in `PromiseClient.ts`). */
export const promiseMethodsOf = (table: Table, runner: PromiseRunner): Record<string, unknown> => {
  const walk = (t: Table, at: (client: unknown) => Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(t)) {
      const here = (client: unknown) => at(client)[name]
      if (!isEntry(value)) {
        out[name] = walk(value, here as (client: unknown) => Record<string, unknown>)
      } else if (value._tag === "Plain") {
        const method = (c: unknown) => here(c) as (request?: unknown) => Effect.Effect<unknown, unknown>
        out[name] = value.takesRequest
          ? (request: unknown, o?: { readonly signal?: unknown }) => runner.run((c) => method(c)(request), o)
          : (o?: { readonly signal?: unknown }) => runner.run((c) => method(c)(), o)
      } else {
        const methods = (c: unknown) => here(c) as AnyMethods
        const entry = value
        out[name] = {
          stream: (request: unknown, o?: { readonly signal?: unknown }) =>
            runner.stream(entry, (c) => methods(c).stream(request, decodeOptionsOf(o)), o),
          ...(entry.response === undefined
            ? {}
            : {
                // the openai SDK's `create`: `stream: true` answers with the stream, never with a whole response
                create: (request: unknown, o?: { readonly signal?: unknown }) =>
                  asksForStream(request)
                    ? runner.stream(entry, (c) => methods(c).stream(request, decodeOptionsOf(o)), o)
                    : runner.run((c) => methods(c).create(request), o),
              }),
        }
      }
    }
    return out
  }
  return walk(table, (client) => client as Record<string, unknown>)
}
