/**
 * The storage contract of resumable streams: an Effect service that the memory, Redis and Durable Object stores
 * implement, and that the handler and the producer use. Each stream is a log of entries (SSE events with a 1-based,
 * gap-free `seq`) that ends with exactly one end entry; one producer at a time writes it, fenced by a lease.
 *
 * @since 0.3.0
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { InvalidEventId, LeaseLost, StoreError, StreamExists, StreamNotFound } from "./ResumableError.ts"

/**
 * How a stream ended.
 *
 * - `done`: the upstream's own end (`data: [DONE]`, or its terminal event).
 * - `error`: the upstream failed (an in-stream API error, a failed request, an undecodable event).
 * - `truncated`: the upstream's body ended before its end (`StreamTruncated`).
 * - `cancelled`: the stream was cancelled (`DELETE`, `ResumableStore.cancel`).
 * - `producer_lost`: the producer stopped renewing its lease (its process died) before the end.
 * - `timeout`: the stream reached its maximum duration.
 *
 * @since 0.3.0
 */
export type EndReason = "done" | "error" | "truncated" | "cancelled" | "producer_lost" | "timeout"

/**
 * Every {@link EndReason}, in declaration order.
 *
 * @since 0.3.0
 */
export const END_REASONS: ReadonlyArray<EndReason> = [
  "done",
  "error",
  "truncated",
  "cancelled",
  "producer_lost",
  "timeout",
]

/**
 * One server-sent event as stored: its `event:` name (none for the default `message`) and its data.
 *
 * @since 0.3.0
 */
export interface StoredEvent {
  /** The `event:` field; `undefined` for an unnamed event. @since 0.3.0 */
  readonly event?: string | undefined
  /** The data, as sent after `data:` (may hold line breaks: each line becomes its own `data:` line). @since 0.3.0 */
  readonly data: string
}

/**
 * A stream's end as the producer stores it: why, and the event that says so on the wire.
 *
 * @since 0.3.0
 */
export interface End extends StoredEvent {
  /** How the stream ended. @since 0.3.0 */
  readonly reason: EndReason
}

/**
 * One entry of a stream's log. The last entry of every stream is its end (`end` set); entries before it have none.
 *
 * @since 0.3.0
 */
export interface Entry {
  /** Its place in the stream: 1, 2, 3… with no gap. @since 0.3.0 */
  readonly seq: number
  /** The `event:` field; `undefined` for an unnamed event. @since 0.3.0 */
  readonly event: string | undefined
  /** The data. @since 0.3.0 */
  readonly data: string
  /** Set on the end entry only: how the stream ended. @since 0.3.0 */
  readonly end?: EndReason | undefined
}

/**
 * A producer's right to write into one stream, from `create`; every write with it is fenced: it fails with
 * `LeaseLost` once the lease expired, or the stream was cancelled or ended.
 *
 * @since 0.3.0
 */
export interface Lease {
  /** The stream. @since 0.3.0 */
  readonly streamId: string
  /** The fencing token: unique per `create`; a store compares it on every write. @since 0.3.0 */
  readonly token: string
  /** How long the lease lasts after `create` or the last `renew`, in milliseconds. @since 0.3.0 */
  readonly leaseMs: number
}

/**
 * How long a new stream's lease, retention and generation last, in milliseconds.
 *
 * @since 0.3.0
 */
export interface CreateOptions {
  /** The lease: a producer that does not renew within this time is lost (readers get `producer_lost`). @since 0.3.0 */
  readonly leaseMs: number
  /** How long an ended stream stays readable (and its id reserved) after its end. @since 0.3.0 */
  readonly retentionMs: number
  /**
   * The longest a stream may be generated; the producer stores a `timeout` end when it is reached. A store may also
   * use it to bound how long a stream that never ends is kept (`maxDurationMs + retentionMs`).
   *
   * @since 0.3.0
   */
  readonly maxDurationMs: number
}

/**
 * Options of {@link ResumableStore.read}.
 *
 * @since 0.3.0
 */
export interface ReadOptions {
  /** At most this many stored entries per page when replaying (default: the store's own, e.g. 256). @since 0.3.0 */
  readonly pageSize?: number | undefined
}

/**
 * What {@link ResumableStore.cancel} did: stored a `cancelled` end, or found the stream already ended.
 *
 * @since 0.3.0
 */
export type CancelResult = "cancelled" | "already_ended"

/**
 * The defaults of {@link CreateOptions}: a 15 s lease, 10 minutes of retention, 10 minutes of generation at most.
 *
 * @since 0.3.0
 */
export const DEFAULT_CREATE_OPTIONS: CreateOptions = {
  leaseMs: 15_000,
  retentionMs: 10 * 60_000,
  maxDurationMs: 10 * 60_000,
}

/**
 * The storage of resumable streams.
 *
 * - `create(streamId, options)`: a new, empty stream and the producer's lease; `StreamExists` if the id exists or
 *   existed within the retention time (ids are never re-used).
 * - `append(lease, events)`: one batch, numbered by the store (1-based, gap-free); the last `seq` written. Fenced.
 * - `renew(lease)`: extends the lease by `leaseMs`. Fenced.
 * - `finish(lease, end)`: stores the end as the last entry; the retention time starts. Fenced.
 * - `read(streamId, afterSeq, options?)`: the stored entries after `afterSeq` (in bounded pages), then the live
 *   ones, then the end entry, then the stream ends. If the producer's lease expires with no end, the reader that
 *   notices first stores a `producer_lost` end (atomically, fenced) and every reader emits it: within the lease
 *   time, never a hang. An `afterSeq` equal to the end entry's seq gives an empty stream; an `afterSeq` past the
 *   last entry stored (of a live or an ended stream) fails with `InvalidEventId` reason `NotSent` (a store may
 *   accept it instead, and wait).
 * - `cancel(streamId)`: stores a `cancelled` end at once; the producer's next `append`/`renew`/`finish` fails with
 *   `LeaseLost` reason `Cancelled`.
 *
 * @since 0.3.0
 */
export class ResumableStore extends Context.Service<
  ResumableStore,
  {
    readonly create: (streamId: string, options: CreateOptions) => Effect.Effect<Lease, StreamExists | StoreError>
    readonly append: (lease: Lease, events: ReadonlyArray<StoredEvent>) => Effect.Effect<number, LeaseLost | StoreError>
    readonly renew: (lease: Lease) => Effect.Effect<void, LeaseLost | StoreError>
    readonly finish: (lease: Lease, end: End) => Effect.Effect<void, LeaseLost | StoreError>
    readonly read: (
      streamId: string,
      afterSeq: number,
      options?: ReadOptions,
    ) => Stream.Stream<Entry, StreamNotFound | InvalidEventId | StoreError>
    readonly cancel: (streamId: string) => Effect.Effect<CancelResult, StreamNotFound | StoreError>
  }
>()("@friendli-stream/resumable/ResumableStore") {}

/**
 * The event that carries an end on the wire: `data: [DONE]` for `done`; for the others an `event: error` whose data
 * is `{"error":{"message","type":"stream_ended","code":REASON}}`, which `@friendli-stream/stream`'s decoder (and
 * OpenAI-style clients) report as an in-stream API error. Stores use it for the ends they write themselves
 * (`cancelled`, `producer_lost`); `message` defaults to a sentence naming the reason.
 *
 * @since 0.3.0
 */
export const endEvent = (reason: EndReason, message?: string): End =>
  reason === "done"
    ? { reason, data: "[DONE]" }
    : {
        reason,
        event: "error",
        data: JSON.stringify({
          error: { message: message ?? END_MESSAGES[reason], type: "stream_ended", code: reason },
        }),
      }

const END_MESSAGES: Readonly<Record<EndReason, string>> = {
  done: "The stream ended.",
  error: "The stream failed.",
  truncated: "The upstream response ended before its end: the stream was cut.",
  cancelled: "The stream was cancelled.",
  producer_lost: "The producer of this stream stopped before its end (its lease expired): the stream was cut.",
  timeout: "The stream reached its maximum duration and was stopped.",
}
