/**
 * The API paths of the three deployment kinds.
 */
import type { Api, Deployment } from "./records.ts"

/** A matched API route. */
export interface Route {
  readonly deployment: Deployment
  readonly api: Api
}

const ROUTES: Readonly<Record<string, Route>> = {
  "/serverless/v1/completions": { deployment: "serverless", api: "completions" },
  "/serverless/v1/chat/completions": { deployment: "serverless", api: "chat" },
  "/serverless/tools/v1/chat/completions": { deployment: "serverless", api: "tools-chat" },
  "/dedicated/v1/completions": { deployment: "dedicated", api: "completions" },
  "/dedicated/v1/chat/completions": { deployment: "dedicated", api: "chat" },
  "/v1/completions": { deployment: "container", api: "completions" },
  "/v1/chat/completions": { deployment: "container", api: "chat" },
}

/**
 * Every API path the mock answers, for documentation and tests.
 *
 * @since 0.1.0
 */
export const API_PATHS: ReadonlyArray<string> = Object.keys(ROUTES)

/** The route of a path (a trailing slash is tolerated), or `undefined`. */
export const matchRoute = (path: string): Route | undefined => ROUTES[path.length > 1 ? path.replace(/\/+$/, "") : path]
