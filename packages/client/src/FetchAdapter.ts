/**
 * The runtime adapter of a platform whose HTTP client is Web `fetch` (Deno, Bun, Workers): its `HttpClient`
 * layer, its Effect client layer and its Promise client, from `FriendliClient.fetchHttpClient`. Each such adapter
 * exports the three under its own names and options type.
 *
 * @example
 * import { FetchAdapter } from "@friendli-stream/client"
 *
 * const adapter = FetchAdapter.make()
 * const client = adapter.createClient({ token: "flp_...", fetch: myFetch })
 *
 * @since 0.1.0
 */
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type { ClientConfigError } from "./ClientError.ts"
import type { ClientOptions } from "./ClientOptions.ts"
import * as FriendliClient from "./FriendliClient.ts"
import { makePromiseClient, type PromiseClient } from "./PromiseClient.ts"

/**
 * The client options, plus `fetch`: send requests with this `fetch` instead of the global one.
 *
 * @since 0.1.0
 */
export interface FetchClientOptions extends ClientOptions {
  /** @since 0.1.0 */
  readonly fetch?: FriendliClient.FetchFunction | undefined
}

/**
 * What a `fetch` runtime adapter exports, for its options type `O`.
 *
 * @since 0.1.0
 */
export interface FetchAdapter<O extends FetchClientOptions> {
  /** The `HttpClient` layer on `fetch` (default: the global `fetch`). @since 0.1.0 */
  readonly httpClientLayer: (fetch?: FriendliClient.FetchFunction) => Layer.Layer<HttpClient.HttpClient>
  /** The Effect client on `options.fetch`: provide it, then `yield* FriendliClient.FriendliClient`. @since 0.1.0 */
  readonly layer: (options?: O) => Layer.Layer<FriendliClient.FriendliClient, ClientConfigError>
  /** The Promise client on `options.fetch`; throws `ClientConfigError` for options that cannot work. @since 0.1.0 */
  readonly createClient: (options?: O) => PromiseClient
}

/**
 * Makes the adapter of a `fetch` runtime for its options type `O`.
 *
 * @since 0.1.0
 */
export const make = <O extends FetchClientOptions = FetchClientOptions>(): FetchAdapter<O> => {
  const httpClientLayer = FriendliClient.fetchHttpClient
  return {
    httpClientLayer,
    layer: (options = {} as O) => Layer.provide(FriendliClient.layer(options), httpClientLayer(options.fetch)),
    createClient: (options = {} as O) => makePromiseClient(httpClientLayer(options.fetch), options),
  }
}
