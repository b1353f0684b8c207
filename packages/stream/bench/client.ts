/** The client as the benchmarks build it: `FriendliClient.layer` on `FriendliClient.fetchHttpClient(fetch)`, once. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type ClientOptions, FriendliClient } from "../src/index.ts"

/** A client on `fetch`; default options but the base URL (and what `options` sets). */
export const benchClient = (
  fetch: FriendliClient.FetchFunction,
  baseURL: string,
  options: ClientOptions = {},
): FriendliClient.FriendliClient =>
  Effect.runSync(
    Effect.provide(
      FriendliClient.FriendliClient.useSync((client) => client),
      FriendliClient.layer({ ...options, baseURL }).pipe(Layer.provide(FriendliClient.fetchHttpClient(fetch))),
    ),
  )

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
    fetch: fetch as FriendliClient.FetchFunction,
    answerWith: (body: ReadableStream<Uint8Array>) => {
      next = body
    },
  }
}
