/**
 * The service's streams as resumable streams (`@friendli-stream/resumable`): `POST /v1/stream` and
 * `GET /v1/stream?prompt=` start one (every event with an `id:`, the answer with its `Location`), `GET` of the
 * location resumes it (`Last-Event-ID`) or replays it, `DELETE` cancels it. The store is the memory store, or the one
 * the app is given (Redis).
 */

import { errorResponse, type PromiseClient } from "@friendli-stream/client"
import { ResumableHandler, type ResumableStore } from "@friendli-stream/resumable"
import { SseResponse } from "@friendli-stream/stream"
import type * as Layer from "effect/Layer"
import { DEFAULT_MODEL, jsonError, readStreamRequest } from "./handler.ts"

/**
 * How the service keeps its streams.
 *
 * @since 0.3.0
 */
export interface StreamsOptions {
  /** The model of requests that name none; default `meta-llama-3.1-8b-instruct`. */
  readonly defaultModel?: string | undefined
  /** Where streams are kept; default a memory store of the service's own (one process). */
  readonly store?: Layer.Layer<ResumableStore, unknown> | undefined
  /** The producer's lease in milliseconds (default 15 000): a killed producer's readers get `producer_lost` within it. */
  readonly leaseMs?: number | undefined
  /** How long an ended stream stays readable, in milliseconds (default 600 000); then 404. */
  readonly retentionMs?: number | undefined
  /** The longest a stream is generated, in milliseconds (default 600 000); then a `timeout` end. */
  readonly maxDurationMs?: number | undefined
  /**
   * A `: keep-alive` comment after this many milliseconds with nothing sent (default 15 000); a first token later than
   * this is waited for inside the `200`, so that a proxy keeps the connection. @since 0.3.0
   */
  readonly keepAliveMs?: number | undefined
}

/** `promise`'s value or failure if it settles within `ms` (any time for 0); `undefined` when it takes longer. */
const settledWithin = async <A>(
  promise: Promise<A>,
  ms: number,
): Promise<{ readonly value: A } | { readonly error: unknown } | undefined> => {
  const settled = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  if (!(ms > 0)) return await settled
  let timer!: ReturnType<typeof setTimeout>
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms)
  })
  try {
    return await Promise.race([settled, late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The resumable-stream routes under `/v1/stream`, producing completions with `client`. A bad request is a 400; a
 * failure before the first token a JSON error (as `toResponse()` answers it) and no stream; after it, the stream's end
 * is an `event: error`. A stream goes on when its reader goes away; `DELETE` aborts its request to the model server.
 *
 * @since 0.3.0
 */
export const makeStreams = (client: PromiseClient, options: StreamsOptions = {}): ResumableHandler.WebHandler =>
  ResumableHandler.toWebHandler({
    basePath: "/v1/stream",
    store: options.store,
    leaseMs: options.leaseMs,
    retentionMs: options.retentionMs,
    maxDurationMs: options.maxDurationMs,
    keepAliveMs: options.keepAliveMs,
    start: async (request, { signal }) => {
      const input = await readStreamRequest(request)
      if (typeof input === "string") return jsonError(400, input)
      const handle = client.completions.stream(
        {
          model: input.model ?? options.defaultModel ?? DEFAULT_MODEL,
          prompt: input.prompt,
          max_tokens: input.max_tokens,
          stream: true,
          stream_options: { include_usage: true },
        },
        // the stream's own signal, not the request's: generation goes on when the first reader goes away
        { signal },
      )
      // The first item decides: a failure before it is the answer (and no stream is stored); one later than the
      // keep-alive time is waited for inside the stream (its keep-alives keep the connection), a failure its end.
      const items = handle[Symbol.asyncIterator]()
      const next = items.next()
      const early = await settledWithin(next, options.keepAliveMs ?? SseResponse.DEFAULT_KEEP_ALIVE_MS)
      if (early !== undefined && "error" in early) return errorResponse(early.error)
      return (async function* () {
        const first = early === undefined ? await next : early.value
        if (first.done) return
        yield first.value
        yield* { [Symbol.asyncIterator]: () => items }
      })()
    },
  })
