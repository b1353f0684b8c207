/**
 * Server-sent events: bytes -> `SseEvent`s, following the WHATWG "event stream interpretation" (HTML §9.2.5–9.2.6).
 *
 * @since 0.1.0
 */
import { dual } from "effect/Function"
import * as Stream from "effect/Stream"
import type { ByteStreamLike as ByteStreamLike_ } from "./ByteStreamLike.ts"
import { decodeStream } from "./internal/channel.ts"
import { Decoder } from "./internal/decoder.ts"
import { resolveOptions } from "./internal/options.ts"
import { fromBody } from "./internal/source.ts"
import { type SseEvent as SseEvent_, SseStage } from "./internal/sseStage.ts"
import type { SseError } from "./StreamError.ts"

/**
 * One event of an event stream: `event` (`"message"` when the server named none), `data` (its data lines joined with
 * `\n`; `""` for a lone `data:`), `id` (the last event id, which persists from event to event; `undefined` until the
 * server sends one, or after it sends an empty one) and `retry` (the stream's reconnection time in milliseconds as the
 * last valid `retry` field set it, in this event's block or an earlier one, even one without data; `undefined` until
 * one). WHATWG makes `id` and `retry` stream state, not event state: a block with only `retry: 500` dispatches no
 * event, and the events after it carry `retry: 500`.
 *
 * @since 0.1.0
 */
export type SseEvent = SseEvent_

/**
 * Options of the SSE decoder.
 *
 * @since 0.1.0
 */
export interface SseOptions {
  /** The longest line or event, in characters of decoded text (at most its bytes); default 8 MiB. */
  readonly maxEventBytes?: number | undefined
}

/**
 * A `ReadableStream<Uint8Array>` as every runtime has one (e.g. `Response.body`), typed structurally.
 *
 * @deprecated Since 0.3.0: the same type is `ByteStreamLike` at the package root (`ByteStreamLike.ts`), as it is not
 * specific to server-sent events.
 * @since 0.1.0
 */
export type ByteStreamLike = ByteStreamLike_

const makeDecoder = (options: SseOptions | undefined) => {
  const { maxEventBytes } = resolveOptions(options)
  return () => new Decoder(new SseStage(), { maxEventBytes, requireDone: false })
}

/**
 * Decodes a byte stream into server-sent events exactly as WHATWG interprets an event stream
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation): comments are
 * skipped; a block with a `data` field is an event, even when its data is empty (`data:` alone gives data `""`); a
 * block without any `data` field dispatches nothing (its `id` and `retry` still count for the events after it); an
 * event the body ends in the middle of is dropped. `[DONE]` is not special here: it is an ordinary event. (The chunk
 * decoders skip events whose data is empty, as they carry no JSON.)
 *
 * @example
 * import { Stream } from "effect"
 * import { Sse } from "@friendli-stream/stream"
 *
 * const events = Sse.decode(Stream.make(new TextEncoder().encode("data: hi\n\n")))
 *
 * @since 0.1.0
 */
export const decode: {
  (options?: SseOptions): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<SseEvent, E | SseError, R>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>, options?: SseOptions): Stream.Stream<SseEvent, E | SseError, R>
} = dual(
  (args) => Stream.isStream(args[0]),
  <E, R>(self: Stream.Stream<Uint8Array, E, R>, options?: SseOptions) => decodeStream(makeDecoder(options))(self),
)

/**
 * Decodes a `ReadableStream` body into server-sent events, batching reads that are already available; ending or
 * interrupting the stream cancels the body.
 *
 * @since 0.1.0
 */
export const fromReadableStream = (body: ByteStreamLike_, options?: SseOptions): Stream.Stream<SseEvent, SseError> =>
  fromBody(body, makeDecoder(options)) as Stream.Stream<SseEvent, SseError>
