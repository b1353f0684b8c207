/**
 * `@friendli-stream/bun`: the Friendli client on Bun. Runtime glue only: the `HttpClient` layer (Effect's
 * `FetchHttpClient` on Bun's `fetch`, or on the `fetch` you pass), `createClient` for Promises, `layer` for Effect.
 * Everything else is `@friendli-stream/client` and `@friendli-stream/stream`, re-exported.
 *
 * @example
 * import { createClient } from "@friendli-stream/bun"
 *
 * const client = createClient({ token: Bun.env.FRIENDLI_TOKEN })
 * const stream = client.chat.stream({ model: "meta-llama-3.1-8b-instruct", messages: [{ role: "user", content: "Hi" }] })
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "")
 *
 * @since 0.1.0
 */
import "./internal/requireNode.ts"

import { type ClientConfigError, FetchAdapter, type FriendliClient, type PromiseClient } from "@friendli-stream/client"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Layer from "effect/Layer"

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
 * The client options, plus `fetch`: send requests with this `fetch` instead of Bun's own.
 *
 * @since 0.1.0
 */
export type BunClientOptions = FetchAdapter.FetchClientOptions

const adapter = FetchAdapter.make<BunClientOptions>()

/**
 * The `HttpClient` layer: Effect's `FetchHttpClient` on `fetch` (default: Bun's global `fetch`).
 *
 * @since 0.1.0
 */
export const httpClientLayer: (fetch?: FriendliClient.FetchFunction) => Layer.Layer<HttpClient.HttpClient> =
  adapter.httpClientLayer

/**
 * The Effect client on Bun: provide it, then `yield* FriendliClient.FriendliClient`.
 *
 * @since 0.1.0
 */
export const layer: (options?: BunClientOptions) => Layer.Layer<FriendliClient.FriendliClient, ClientConfigError> =
  adapter.layer

/**
 * The Promise client on Bun; throws `ClientConfigError` for options that cannot work (e.g. no token).
 *
 * @since 0.1.0
 */
export const createClient: (options?: BunClientOptions) => PromiseClient = adapter.createClient
