/**
 * `@friendli-stream/cloudflare`: the Friendli client on Cloudflare Workers. Runtime glue only: the `HttpClient`
 * layer (Effect's `FetchHttpClient` on the Worker's `fetch`), `createClient` for Promises, `layer` for Effect, and
 * `proxyCompletionStream` / `proxyChatCompletionStream`, which answer a browser with the upstream stream as it
 * arrives. Everything else is `@friendli-stream/client` and `@friendli-stream/stream`, re-exported.
 *
 * @since 0.1.0
 */
import "./internal/requireNode.ts"

import { type ClientConfigError, FetchAdapter, type FriendliClient, type PromiseClient } from "@friendli-stream/client"
import type { DeploymentKind } from "@friendli-stream/core"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Layer from "effect/Layer"
import { type Lease, proxyClients } from "./internal/proxyClients.ts"

/**
 * Everything of `@friendli-stream/client` (`FriendliClient`, the Promise client, its options and errors) and of
 * `@friendli-stream/stream` (the decoders and their errors).
 *
 * @since 0.1.0
 */
export * from "@friendli-stream/client"
/** @since 0.1.0 */
export * from "@friendli-stream/stream"

/**
 * The client options, plus `fetch`: send requests with this `fetch` (e.g. a service binding's) instead of the global one.
 *
 * @since 0.1.0
 */
export type CloudflareClientOptions = FetchAdapter.FetchClientOptions

const adapter = FetchAdapter.make<CloudflareClientOptions>()

/**
 * The `HttpClient` layer: Effect's `FetchHttpClient` on `fetch` (default: the Worker's global `fetch`).
 *
 * @since 0.1.0
 */
export const httpClientLayer: (fetch?: FriendliClient.FetchFunction) => Layer.Layer<HttpClient.HttpClient> =
  adapter.httpClientLayer

/**
 * The Effect client on Workers: provide it, then `yield* FriendliClient.FriendliClient`.
 *
 * @since 0.1.0
 */
export const layer: (
  options?: CloudflareClientOptions,
) => Layer.Layer<FriendliClient.FriendliClient, ClientConfigError> = adapter.layer

/**
 * The Promise client on Workers; throws `ClientConfigError` for options that cannot work (e.g. no token).
 *
 * @since 0.1.0
 */
export const createClient: (options?: CloudflareClientOptions) => PromiseClient = adapter.createClient

/**
 * The bindings the proxies read: `FRIENDLI_TOKEN` (a secret), and optionally `FRIENDLI_TEAM`, `FRIENDLI_DEPLOYMENT`,
 * `FRIENDLI_BASE_URL` and `FRIENDLI_MODEL` (when set, every request uses this model, whatever the browser sent).
 *
 * @since 0.1.0
 */
export interface FriendliEnv {
  /** The bearer token (`wrangler secret put FRIENDLI_TOKEN`). @since 0.1.0 */
  readonly FRIENDLI_TOKEN?: string
  /** Sent as `X-Friendli-Team`. @since 0.1.0 */
  readonly FRIENDLI_TEAM?: string
  /** `"serverless"` (default), `"dedicated"` or `"container"`. @since 0.1.0 */
  readonly FRIENDLI_DEPLOYMENT?: string
  /** Any OpenAI-compatible server, without `/v1`. @since 0.1.0 */
  readonly FRIENDLI_BASE_URL?: string
  /** When set, the model of every request, whatever the browser sent. @since 0.1.0 */
  readonly FRIENDLI_MODEL?: string
}

type ErrorBody = { readonly message: string; readonly type: string; readonly code: unknown }

const jsonError = (status: number, error: ErrorBody): Response => Response.json({ error }, { status })

/** The options object of a proxy call without one (one object, so that those calls share a client). */
const NO_OPTIONS: CloudflareClientOptions = {}

const proxy =
  (api: "completions" | "chat") =>
  async (request: Request, env: FriendliEnv, options: CloudflareClientOptions = NO_OPTIONS): Promise<Response> => {
    const body: unknown = request.method === "POST" ? await request.json().catch(() => null) : null
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return jsonError(400, {
        message: "POST the request as a JSON object.",
        type: "invalid_request_error",
        code: null,
      })
    const { FRIENDLI_TOKEN: token, FRIENDLI_TEAM: team, FRIENDLI_BASE_URL: baseURL, FRIENDLI_MODEL: model } = env
    const deployment = env.FRIENDLI_DEPLOYMENT as DeploymentKind | undefined
    let lease: Lease
    try {
      // The isolate's client for these bindings and options, made on the first request that has them.
      lease = proxyClients.acquire({ token, team, deployment, baseURL }, options)
    } catch (error) {
      return jsonError(500, { message: (error as Error).message, type: "ClientConfigError", code: null })
    }
    try {
      const req = (model === undefined ? body : { ...body, model }) as never
      const o = { signal: request.signal }
      const handle = api === "chat" ? lease.client.chat.stream(req, o) : lease.client.completions.stream(req, o)
      const response = await handle.toResponse()
      // Settles once the stream has ended in any way (read to its end, failed, aborted, or the body cancelled),
      // and at once for an error response: then the client may be closed, if the cache has dropped it.
      handle.finalCompletion().then(lease.release, lease.release)
      return response
    } catch (error) {
      lease.release()
      throw error
    }
  }

/**
 * Answers a browser's `POST` of a completion request (JSON) with the upstream stream as server-sent events, each
 * chunk passed on as it arrives (the stream handle's `toResponse()`): a failure before the first chunk is a JSON
 * `{ error }` whose status says whose fault it was (the upstream's 400, 404, 422 or 429; 400 for a request that
 * fails the schema, 504 for a timeout, 502 for the rest), one after it an `event: error`. The token comes from
 * `env.FRIENDLI_TOKEN`; the browser leaving aborts the upstream.
 *
 * The client is the isolate's for these bindings (`FRIENDLI_TOKEN`, `FRIENDLI_TEAM`, `FRIENDLI_DEPLOYMENT`,
 * `FRIENDLI_BASE_URL`) and this `options` object (by identity: pass the same object each time), made by the first
 * request that has them and reused by the next; at most 8 are kept, and one dropped is closed once its streams have
 * ended.
 *
 * @since 0.1.0
 */
export const proxyCompletionStream: (
  request: Request,
  env: FriendliEnv,
  options?: CloudflareClientOptions,
) => Promise<Response> = proxy("completions")

/**
 * `proxyCompletionStream` for chat: the browser posts a chat completion request.
 *
 * @since 0.1.0
 */
export const proxyChatCompletionStream: (
  request: Request,
  env: FriendliEnv,
  options?: CloudflareClientOptions,
) => Promise<Response> = proxy("chat")
