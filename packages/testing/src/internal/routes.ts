/**
 * The API paths of the three deployment kinds.
 */
import type { Api, Deployment } from "./records.ts"

/** A matched API route. */
export interface Route {
  readonly deployment: Deployment
  readonly api: Api
  /** The method the path answers (default `POST`). */
  readonly method?: "GET"
}

const ROUTES: Readonly<Record<string, Route>> = {
  "/serverless/v1/completions": { deployment: "serverless", api: "completions" },
  "/serverless/v1/chat/completions": { deployment: "serverless", api: "chat" },
  "/serverless/tools/v1/chat/completions": { deployment: "serverless", api: "tools-chat" },
  "/dedicated/v1/completions": { deployment: "dedicated", api: "completions" },
  "/dedicated/v1/chat/completions": { deployment: "dedicated", api: "chat" },
  "/v1/completions": { deployment: "container", api: "completions" },
  "/v1/chat/completions": { deployment: "container", api: "chat" },
  "/serverless/v1/responses": { deployment: "serverless", api: "responses" },
  "/dedicated/v1/responses": { deployment: "dedicated", api: "responses" },
  "/v1/responses": { deployment: "container", api: "responses" },
  "/serverless/v1/messages": { deployment: "serverless", api: "messages" },
  "/dedicated/v1/messages": { deployment: "dedicated", api: "messages" },
  "/v1/messages": { deployment: "container", api: "messages" },
  "/serverless/v1/audio/transcriptions": { deployment: "serverless", api: "transcriptions" },
  "/dedicated/v1/audio/transcriptions": { deployment: "dedicated", api: "transcriptions" },
  "/v1/audio/transcriptions": { deployment: "container", api: "transcriptions" },
  "/serverless/v1/tokenize": { deployment: "serverless", api: "tokenize" },
  "/dedicated/v1/tokenize": { deployment: "dedicated", api: "tokenize" },
  "/v1/tokenize": { deployment: "container", api: "tokenize" },
  "/serverless/v1/detokenize": { deployment: "serverless", api: "detokenize" },
  "/dedicated/v1/detokenize": { deployment: "dedicated", api: "detokenize" },
  "/v1/detokenize": { deployment: "container", api: "detokenize" },
  "/serverless/v1/models": { deployment: "serverless", api: "models", method: "GET" },
  "/dedicated/v1/embeddings": { deployment: "dedicated", api: "embeddings" },
  "/dedicated/v1/images/generations": { deployment: "dedicated", api: "images-generations" },
  "/dedicated/v1/images/edits": { deployment: "dedicated", api: "images-edits" },
  "/v1/images/generations": { deployment: "container", api: "images-generations" },
  "/v1/images/edits": { deployment: "container", api: "images-edits" },
}

/**
 * Every API path the mock answers, for documentation and tests.
 *
 * @since 0.1.0
 */
export const API_PATHS: ReadonlyArray<string> = Object.keys(ROUTES)

/** The route of a path (a trailing slash is tolerated), or `undefined`. */
export const matchRoute = (path: string): Route | undefined => ROUTES[path.length > 1 ? path.replace(/\/+$/, "") : path]
