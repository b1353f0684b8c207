/**
 * The client as the benchmarks build it: `FriendliClient.make` on `FriendliClient.fetchHttpClient(fetch)`, once.
 * The client is `@friendli-stream/client`, which depends on this package: it is loaded from its build
 * (`packages/client/dist`, which turbo builds before this bench), typed here by the little the benchmarks use of it,
 * since a dependency on it would close a cycle.
 */
import type * as Core from "@friendli-stream/core"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"

/** A `fetch` function. */
export type FetchFunction = typeof globalThis.fetch

/** What the benchmarks use of a `FriendliClient`. */
export interface BenchClient {
  readonly completions: {
    stream(request: Core.CompletionRequest): Stream.Stream<Core.CompletionChunk, unknown>
  }
}

/** What the benchmarks use of `@friendli-stream/client`. */
interface ClientModule {
  readonly FriendliClient: {
    readonly make: (options: object) => Effect.Effect<BenchClient, unknown, HttpClient.HttpClient>
    readonly fetchHttpClient: (fetch: FetchFunction) => Layer.Layer<HttpClient.HttpClient>
  }
}

const CLIENT_BUILD = "../../client/dist/index.js"

/** A client on `fetch`; default options but the base URL (and what `options` sets). */
export const benchClient = async (
  fetch: FetchFunction,
  baseURL: string,
  options: object = {},
): Promise<BenchClient> => {
  const { FriendliClient } = (await import(CLIENT_BUILD)) as ClientModule
  return Effect.runSync(
    Effect.provide(
      FriendliClient.make({ ...options, baseURL }),
      FriendliClient.fetchHttpClient(fetch),
    ) as Effect.Effect<BenchClient, unknown>,
  )
}

/** The request every benchmark streams. */
export const request = { model: "meta-llama-3.1-8b-instruct", prompt: "Say something." }

/**
 * A fake `fetch` that answers the next request with a `Response` over the body handed to `answerWith` (once): the
 * client's fast path (`HttpClientResponse.toWeb`, then the batching body reader), with no socket.
 */
export const fakeFetch = () => {
  let next: ReadableStream<Uint8Array> | undefined
  const fetch = async (): Promise<Response> => {
    const body = next
    next = undefined
    if (body === undefined) throw new Error("the fake fetch was called twice for one body")
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } })
  }
  return {
    fetch: fetch as FetchFunction,
    answerWith: (body: ReadableStream<Uint8Array>) => {
      next = body
    },
  }
}
