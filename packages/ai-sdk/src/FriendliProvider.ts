/**
 * The Friendli provider of the Vercel AI SDK (language-model specification v4, what `ai` 7 calls), on
 * `@friendli-stream/client` and `@friendli-stream/stream`'s decoder.
 *
 * @since 0.2.0
 */
import {
  type EmbeddingModelV4,
  type ImageModelV4,
  type LanguageModelV4,
  NoSuchModelError,
  type ProviderV4,
  type TranscriptionModelV4,
} from "@ai-sdk/provider"
import type { FriendliClient } from "@friendli-stream/client"
import type { ModelCatalogResponseItem } from "@friendli-stream/core"
import type * as Redacted from "effect/Redacted"
import { type CallSettings, httpClientOf, resolveForCall } from "./internal/call.ts"
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
  const noSuch = (modelType: "embeddingModel" | "imageModel", why: string) => (modelId: string) => {
    throw new NoSuchModelError({
      modelId,
      modelType,
      message: `The Friendli provider of @friendli-stream/ai-sdk has no ${modelType} (model ${modelId}): ${why}`,
    })
  }
  const provider = Object.assign((modelId: string) => model(modelId, "chat"), {
    specificationVersion: "v4" as const,
    languageModel: (modelId: string) => model(modelId, "chat"),
    chat: (modelId: string) => model(modelId, "chat"),
    completion: (modelId: string) => model(modelId, "completion"),
    dedicated: (endpointId: string) => model(endpointId, "chat", dedicatedSettings),
    embeddingModel: noSuch(
      "embeddingModel",
      "@friendli-stream/client has no embeddings call yet, and this provider only goes through that client.",
    ) as (modelId: string) => EmbeddingModelV4,
    imageModel: noSuch(
      "imageModel",
      "@friendli-stream/client has no image generation call yet, and this provider only goes through that client.",
    ) as (modelId: string) => ImageModelV4,
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
