/**
 * The producer of one stream inside its Durable Object: the upstream stream handle's server-sent events (decoded
 * with `Sse.fromReadableStream`, which batches the events a read brings) appended batch by batch, the lease renewed
 * while it runs, and the stream's end stored as its last entry: `[DONE]` (`done`), an `event: error` (`error`, or
 * `truncated` for a cut), a body that ends with neither (`truncated`), the maximum duration (`timeout`). When the
 * store refuses a write (cancelled, ended), the producer stops; interrupting it (cancel) cancels the body, which
 * aborts the upstream request.
 */
import { type End, endEvent, type Lease, type ResumableStore, type StoredEvent } from "@friendli-stream/resumable"
import { Sse } from "@friendli-stream/stream"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"

/** What the producer reads: a stream handle of `@friendli-stream/stream`'s client. */
export interface UpstreamHandle {
  toReadableStream(): ReadableStream<Uint8Array>
}

/** The end an `event: error` names: a cut (`StreamTruncated`) or any other failure. */
const errorEnd = (data: string): End => {
  let type: unknown
  try {
    type = (JSON.parse(data) as { error?: { type?: unknown } }).error?.type
  } catch {
    type = undefined
  }
  return { reason: type === "StreamTruncated" ? "truncated" : "error", event: "error", data }
}

/** Produces the stream of `lease` from `handle` into `store`, until its end; never fails. */
export const produce = (
  store: ResumableStore["Service"],
  lease: Lease,
  handle: UpstreamHandle,
  maxDurationMs: number,
): Effect.Effect<void> => {
  let ended = false
  const finish = (end: End) =>
    Effect.suspend(() => {
      ended = true
      return store.finish(lease, end)
    })

  const pump = Sse.fromReadableStream(handle.toReadableStream()).pipe(
    Stream.runForEachArray((events) =>
      Effect.gen(function* () {
        if (ended) return
        const batch: Array<StoredEvent> = []
        let end: End | undefined
        for (const e of events) {
          if (e.event === "message" && e.data === "[DONE]") {
            end = endEvent("done")
            break
          }
          if (e.event === "error") {
            end = errorEnd(e.data)
            break
          }
          batch.push(e.event === "message" ? { data: e.data } : { event: e.event, data: e.data })
        }
        if (batch.length > 0) yield* store.append(lease, batch)
        if (end !== undefined) yield* finish(end)
      }),
    ),
    Effect.flatMap(() =>
      ended
        ? Effect.void
        : finish(endEvent("truncated", "The upstream response ended before [DONE]: the stream was cut.")),
    ),
    Effect.catchTag("SseError", (error) =>
      finish({
        reason: "error",
        event: "error",
        data: JSON.stringify({ error: { message: error.message, type: error._tag, code: null } }),
      }),
    ),
  )

  const renewals = Effect.sleep(Math.max(1, Math.floor(lease.leaseMs / 3))).pipe(
    Effect.andThen(store.renew(lease)),
    Effect.forever,
  )

  return Effect.gen(function* () {
    const renewer = yield* Effect.forkChild(renewals)
    const finished = yield* Effect.timeoutOption(pump, maxDurationMs)
    if (finished._tag === "None" && !ended) {
      yield* finish(
        endEvent("timeout", `The stream reached its maximum duration (${maxDurationMs} ms) and was stopped.`),
      )
    }
    yield* Fiber.interrupt(renewer)
  }).pipe(
    // A refused write (LeaseLost: cancelled, expired, ended) or a failed store: nothing more to do; the upstream
    // body is cancelled with the pump.
    Effect.ignore,
  )
}
