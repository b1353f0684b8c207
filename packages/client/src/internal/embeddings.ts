/**
 * Embeddings, the client's half: `POST /v1/embeddings` on a dedicated endpoint (Friendli's description has it
 * nowhere else), request/response only.
 */
import * as Core from "@friendli-stream/core"
import type { ResponseSpec } from "./engine.ts"
import { type Endpoint, jsonEndpoint } from "./request.ts"

/** The embeddings endpoint (dedicated). */
export const embeddings: Endpoint = jsonEndpoint(
  "embeddings",
  "/v1/embeddings",
  Core.isDedicatedEmbeddingsBody,
  Core.DedicatedEmbeddingsBody,
  false,
)

/** The check of an embeddings answer. */
export const embeddingsResponse: ResponseSpec<Core.DedicatedEmbeddingsSuccess> = {
  guard: Core.isDedicatedEmbeddingsSuccess,
  schema: Core.DedicatedEmbeddingsSuccess,
}

/** The deployment kinds that serve embeddings, and what a call elsewhere is told. */
export const EMBEDDINGS_DEPLOYMENTS = {
  kinds: ["dedicated"],
  needs: "embeddings need a dedicated endpoint (Friendli serves them on dedicated endpoints only)",
} as const
