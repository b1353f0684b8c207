/**
 * `@friendli-stream/node`: the Friendli client on Node.js. Runtime glue only: the `HttpClient` layer (undici, or
 * your `fetch`), `createClient` for Promises, `layer` for Effect, and `toNodeReadable` for Node streams.
 *
 * @since 0.1.0
 */
import "./internal/requireNode.ts"
import { Readable } from "node:stream"
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import {
  type ClientConfigError,
  type ClientOptions,
  FriendliClient,
  makePromiseClient,
  type PromiseClient,
  ResponseBody,
  type StreamHandle,
} from "@friendli-stream/client"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import { nodeResponseBody } from "./internal/readableBody.ts"

/** @since 0.1.0 */
export * from "@friendli-stream/client"
/** @since 0.1.0 */
export * from "@friendli-stream/stream"

/**
 * The client options, plus `fetch`: send requests with this `fetch` instead of Node's undici client.
 *
 * @since 0.1.0
 */
export interface NodeClientOptions extends ClientOptions {
  /** @since 0.1.0 */
  readonly fetch?: typeof globalThis.fetch | undefined
}

/**
 * The `HttpClient` layer: undici (`NodeHttpClient.layerUndici`, its own connection pool, closed with the layer,
 * with `ResponseBody` reading its responses' bodies by the client's batching reader), or `FetchHttpClient` on the
 * `fetch` you pass.
 *
 * @since 0.1.0
 */
export const httpClientLayer = (fetch?: typeof globalThis.fetch): Layer.Layer<HttpClient.HttpClient> =>
  fetch === undefined
    ? Layer.merge(NodeHttpClient.layerUndici, Layer.succeed(ResponseBody.ResponseBody, nodeResponseBody))
    : FriendliClient.fetchHttpClient(fetch)

/**
 * The Effect client on Node: provide it, then `yield* FriendliClient.FriendliClient`.
 *
 * @since 0.1.0
 */
export const layer = (options: NodeClientOptions = {}): Layer.Layer<FriendliClient.FriendliClient, ClientConfigError> =>
  Layer.provide(FriendliClient.layer(options), httpClientLayer(options.fetch))

/**
 * The Promise client on Node; throws `ClientConfigError` for options that cannot work (e.g. no token).
 *
 * @since 0.1.0
 */
export const createClient = (options: NodeClientOptions = {}): PromiseClient =>
  makePromiseClient(httpClientLayer(options.fetch), options)

/**
 * A Node `Readable` view of a stream: its server-sent events as bytes (`"sse"`, default: pipe it into an HTTP
 * response), or its items as objects (`"objects"`). Destroying the `Readable` aborts the request.
 *
 * @since 0.1.0
 */
export const toNodeReadable = <A, F>(
  handle: StreamHandle<A, F>,
  options: { readonly mode?: "sse" | "objects" | undefined } = {},
): Readable =>
  options.mode === "objects"
    ? Readable.from(handle, { objectMode: true })
    : Readable.fromWeb(handle.toReadableStream() as unknown as NodeWebReadableStream<Uint8Array>)
