/**
 * The Friendli provider of the Vercel AI SDK (language-model specification v4, what `ai` 7 calls), on
 * `@friendli-stream/client` and `@friendli-stream/stream`'s decoder.
 *
 * @since 0.2.0
 */
import type {
  EmbeddingModelV4,
  ImageModelV4,
  LanguageModelV4,
  ProviderV4,
  TranscriptionModelV4,
} from "@ai-sdk/provider"
import type { FriendliClient } from "@friendli-stream/client"
import type { ModelCatalogResponseItem } from "@friendli-stream/core"
import type * as Redacted from "effect/Redacted"
import { type CallSettings, httpClientOf, resolveForCall } from "./internal/call.ts"
import { FriendliEmbeddingModel } from "./internal/embedding.ts"
import { FriendliImageModel } from "./internal/image.ts"
import { FriendliLanguageModel } from "./internal/model.ts"
import { listModels } from "./internal/models.ts"
import { FriendliTranscriptionModel } from "./internal/transcription.ts"
import { tools } from "./Tools.ts"

/**
 * How the provider reaches Friendli. Every member is optional.
 *
 * - `token` (or `apiKey`, the name every AI SDK provider gives it; not both): the bearer token; default
 *   `FRIENDLI_TOKEN` (read when a call is made). Kept `Redacted`.
 * - `deployment`: `"serverless"` (default), `"dedicated"` or `"container"`: picks the default base URL.
 * - `baseURL`: a Friendli Container or any OpenAI-compatible server, its root or its `/v1` (e.g.
 *   `http://127.0.0.1:8000`, `https://api.friendli.ai/serverless/v1`).
 * - `teamId`: sent as `X-Friendli-Team`; default `FRIENDLI_TEAM`.
 * - `fetch`: the `fetch` every request goes through (default: the global one).
 * - `headers`: extra headers on every request.
 * - `firstByteTimeoutMs`, `idleTimeoutMs`: the client's timeouts (default 60 s each; keep-alives do not count).
 * - `validation`: `"strict"` (default: Friendli's schemas) or `"compatible"` (another OpenAI-compatible server's
 *   chunks, read leniently: `finish_reason` of any word, `delta.reasoning`, Mistral's content parts, …).
 *
 * @since 0.2.0
 */
export interface FriendliProviderSettings {
  /** @since 0.2.0 */
  readonly token?: string | Redacted.Redacted<string> | undefined
  /** The bearer token under the AI SDK providers' name for it: `token`'s other name (pass one of them). @since 0.3.0 */
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
  /** @since 0.2.0 */
  readonly deployment?: "serverless" | "dedicated" | "container" | undefined
  /** @since 0.2.0 */
  readonly baseURL?: string | undefined
  /** @since 0.2.0 */
  readonly teamId?: string | undefined
  /** @since 0.2.0 */
  readonly fetch?: FriendliClient.FetchFunction | undefined
  /** @since 0.2.0 */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** @since 0.2.0 */
  readonly firstByteTimeoutMs?: number | undefined
  /** @since 0.2.0 */
  readonly idleTimeoutMs?: number | undefined
  /** @since 0.2.0 */
  readonly validation?: "strict" | "compatible" | undefined
}

/**
 * A model of Friendli's serverless catalogue, as `GET /serverless/v1/models` lists it.
 *
 * @since 0.2.0
 */
export type FriendliModelInfo = ModelCatalogResponseItem

/**
 * The provider: call it with a model id for a chat model.
 *
 * @since 0.2.0
 */
export interface FriendliProvider extends ProviderV4 {
  /** A chat model (`/v1/chat/completions`; with built-in tools, `/tools/v1/chat/completions`). @since 0.2.0 */
  (modelId: string): LanguageModelV4
  /** A chat model. @since 0.2.0 */
  chat(modelId: string): LanguageModelV4
  /** A completion model (`/v1/completions`): the prompt's texts, one paragraph each. @since 0.2.0 */
  completion(modelId: string): LanguageModelV4
  /** A chat model of a dedicated endpoint (`/dedicated/v1/...`, the endpoint id as model). @since 0.2.0 */
  dedicated(endpointId: string): LanguageModelV4
  /**
   * A transcription model (`/v1/audio/transcriptions`, a `multipart/form-data` upload), for `transcribe`.
   * @since 0.2.0
   */
  transcriptionModel(modelId: string): TranscriptionModelV4
  /** A transcription model (the same as `transcriptionModel`). @since 0.2.0 */
  transcription(modelId: string): TranscriptionModelV4
  /**
   * An embedding model (`/v1/embeddings` of a dedicated endpoint: `modelId` is the endpoint id), for `embed` and
   * `embedMany`. On a serverless or container provider its calls fail with `InvalidRequestError` (nothing sent).
   * @since 0.3.0
   */
  embeddingModel(modelId: string): EmbeddingModelV4
  /** An embedding model (the same as `embeddingModel`). @since 0.3.0 */
  embedding(modelId: string): EmbeddingModelV4
  /**
   * An image model (`/v1/images/generations`; with input images, `/v1/images/edits`) of a dedicated endpoint or a
   * container, for `generateImage`. On a serverless provider its calls fail with `InvalidRequestError`.
   * @since 0.3.0
   */
  imageModel(modelId: string): ImageModelV4
  /** An image model (the same as `imageModel`). @since 0.3.0 */
  image(modelId: string): ImageModelV4
  /** Friendli's built-in tools, run by Friendli (serverless). @since 0.2.0 */
  readonly tools: typeof tools
  /**
   * The models of the serverless catalogue: the client's `models.list()` (`GET /serverless/v1/models`, or
   * `${baseURL}/v1/models`). A dedicated or container provider fails with `InvalidRequestError` (nothing sent).
   * @since 0.2.0
   */
  models(options?: { readonly abortSignal?: AbortSignal | undefined }): Promise<ReadonlyArray<FriendliModelInfo>>
}

/**
 * Makes a provider.
 *
 * @example
 * import { streamText } from "ai"
 * import { createFriendli } from "@friendli-stream/ai-sdk"
 *
 * const friendli = createFriendli({ token: process.env.FRIENDLI_TOKEN })
 * const result = streamText({ model: friendli("meta-llama-3.1-8b-instruct"), prompt: "Write a haiku." })
 * for await (const text of result.textStream) process.stdout.write(text)
 *
 * @since 0.2.0
 */
export const createFriendli = (settings: FriendliProviderSettings = {}): FriendliProvider => {
  const call = (deployment: FriendliProviderSettings["deployment"]): CallSettings => ({
    fetch: settings.fetch,
    validation: settings.validation ?? "strict",
    client: {
      token: settings.token,
      apiKey: settings.apiKey,
      team: settings.teamId,
      deployment,
      baseURL: settings.baseURL,
      headers: settings.headers,
      firstByteTimeoutMs: settings.firstByteTimeoutMs,
      idleTimeoutMs: settings.idleTimeoutMs,
    },
  })
  const main = call(settings.deployment)
  const http = httpClientOf(main)
  const model = (modelId: string, kind: "chat" | "completion", callSettings: CallSettings = main) =>
    new FriendliLanguageModel(modelId, kind, { provider: "friendli", settings: callSettings, http })
  const dedicatedSettings = call("dedicated")
  const transcription = (modelId: string) =>
    new FriendliTranscriptionModel(modelId, { provider: "friendli", settings: main, http })
  const embedding = (modelId: string) =>
    new FriendliEmbeddingModel(modelId, { provider: "friendli", settings: main, http })
  const image = (modelId: string) => new FriendliImageModel(modelId, { provider: "friendli", settings: main, http })
  const provider = Object.assign((modelId: string) => model(modelId, "chat"), {
    specificationVersion: "v4" as const,
    languageModel: (modelId: string) => model(modelId, "chat"),
    chat: (modelId: string) => model(modelId, "chat"),
    completion: (modelId: string) => model(modelId, "completion"),
    dedicated: (endpointId: string) => model(endpointId, "chat", dedicatedSettings),
    embeddingModel: embedding,
    embedding,
    imageModel: image,
    image,
    transcriptionModel: transcription,
    transcription,
    tools,
    models: (options?: { readonly abortSignal?: AbortSignal | undefined }) =>
      listModels(http(), resolveForCall(main, undefined), options?.abortSignal),
  })
  return provider
}

/**
 * The default provider: `FRIENDLI_TOKEN` and `FRIENDLI_TEAM` from the environment, serverless.
 *
 * @since 0.2.0
 */
export const friendli: FriendliProvider = createFriendli()
