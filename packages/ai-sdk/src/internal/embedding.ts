/**
 * The embedding model: the AI SDK's values sent through the client's `embeddings.create` (`/v1/embeddings`, a
 * dedicated endpoint's; on another deployment the client fails with `InvalidRequestError`, nothing sent), the
 * vectors returned in order. Friendli's description has no `dimensions`: asking for them is a warning.
 */
import type {
  EmbeddingModelV4,
  EmbeddingModelV4CallOptions,
  EmbeddingModelV4Result,
  SharedV4Warning,
} from "@ai-sdk/provider"
import type { FriendliClient } from "@friendli-stream/client"
import { embeddingsOf } from "@friendli-stream/client/provider"
import type * as HttpClient from "effect/http/HttpClient"
import { type CallSettings, resolveForCall, runCreate } from "./call.ts"

/** What an embedding or image model needs from its provider. */
export interface ModelConfig {
  readonly provider: string
  readonly settings: CallSettings
  readonly http: () => HttpClient.HttpClient
}

const PATH = "/v1/embeddings"

/** A Friendli embedding model of the AI SDK's specification v4. */
export class FriendliEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = "v4"
  readonly modelId: string
  /** Friendli's description states no limit: every value goes in one request. */
  readonly maxEmbeddingsPerCall = Number.POSITIVE_INFINITY
  readonly supportsParallelCalls = true
  private readonly config: ModelConfig

  constructor(modelId: string, config: ModelConfig) {
    this.modelId = modelId
    this.config = config
  }

  get provider(): string {
    return `${this.config.provider}.embedding`
  }

  async doEmbed(options: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
    const warnings: Array<SharedV4Warning> = []
    if (options.dimensions !== undefined) {
      warnings.push({
        type: "unsupported",
        feature: "dimensions",
        details: "Friendli's embeddings API has no dimensions parameter: the vectors have the model's own length.",
      })
    }
    const request: FriendliClient.EmbeddingsRequest = { model: this.modelId, input: options.values }
    const { value, headers } = await runCreate(
      {
        http: this.config.http(),
        options: resolveForCall(this.config.settings, options.headers),
        path: PATH,
        body: request,
        signal: options.abortSignal,
      },
      (client) => client.embeddings.create(request),
    )
    const { vectors, tokens } = embeddingsOf(value)
    return {
      embeddings: vectors,
      usage: { tokens },
      warnings,
      response: { headers, body: value },
    }
  }
}
