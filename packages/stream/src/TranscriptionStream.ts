/**
 * Streamed audio transcriptions (`/v1/audio/transcriptions` with `stream: true`): bytes -> typed events, and the fold
 * into the transcript. The stream ends with `transcript.text.done` then `data: [DONE]`; a body that ends before
 * either fails with `StreamTruncated`.
 *
 * @since 0.2.0
 */
import type * as Core from "@friendli-stream/core"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "./DecodeOptions.ts"
import { runAccumulate } from "./internal/accumulate.ts"
import * as Acc from "./internal/accumulateTranscription.ts"
import { bodyStream, dualDecode } from "./internal/fronts.ts"
import { transcription } from "./internal/protocolFronts.ts"
import type { CompatibleTranscriptionEvent } from "./internal/protocols/transcription.ts"
import type { ReadableByteStream } from "./Sse.ts"
import type { DecodeError } from "./StreamError.ts"
import type { UnknownStreamEvent } from "./UnknownStreamEvent.ts"

/**
 * An event decoded with `validation: "strict"` (Friendli's schemas), a discriminated union on `type`.
 *
 * @since 0.2.0
 */
export type TranscriptionStreamEvent = Core.StreamedAudioTranscriptionData

/**
 * An event decoded with `validation: "compatible"`: the known event types with only what the accumulator reads
 * checked (every other field kept), and events of other types as {@link UnknownStreamEvent}.
 *
 * @since 0.2.0
 */
export type CompatibleTranscriptionStreamEvent = CompatibleTranscriptionEvent | UnknownStreamEvent

/**
 * The final transcript a stream folds into.
 *
 * @since 0.2.0
 */
export type Transcript = Acc.TranscriptResult

/**
 * Decodes a byte stream of transcription server-sent events into typed events, ending at `data: [DONE]`.
 *
 * @since 0.2.0
 */
export const decode: {
  (
    options?: StrictOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<TranscriptionStreamEvent, E | DecodeError, R>
  (
    options: CompatibleOptions,
  ): <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
  ) => Stream.Stream<CompatibleTranscriptionStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options?: StrictOptions,
  ): Stream.Stream<TranscriptionStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options: CompatibleOptions,
  ): Stream.Stream<CompatibleTranscriptionStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options: DecodeOptions,
  ): Stream.Stream<TranscriptionStreamEvent | CompatibleTranscriptionStreamEvent, E | DecodeError, R>
  (
    options: DecodeOptions,
  ): <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
  ) => Stream.Stream<TranscriptionStreamEvent | CompatibleTranscriptionStreamEvent, E | DecodeError, R>
} = dualDecode(transcription.choose, transcription.end) as never

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed events. Ending or interrupting the stream
 * cancels the body.
 *
 * @since 0.2.0
 */
export const fromReadableStream: {
  (body: ReadableByteStream, options?: StrictOptions): Stream.Stream<TranscriptionStreamEvent, DecodeError>
  (body: ReadableByteStream, options: CompatibleOptions): Stream.Stream<CompatibleTranscriptionStreamEvent, DecodeError>
  (
    body: ReadableByteStream,
    options: DecodeOptions,
  ): Stream.Stream<TranscriptionStreamEvent | CompatibleTranscriptionStreamEvent, DecodeError>
} = ((body: ReadableByteStream, options?: DecodeOptions) =>
  bodyStream(body, transcription.choose, options, transcription.end)) as never

/**
 * Folds a stream of events into the transcript: the deltas concatenated, then `transcript.text.done`'s whole text
 * (it wins) and usage.
 *
 * @since 0.2.0
 */
export const accumulate = <E, R>(
  self: Stream.Stream<TranscriptionStreamEvent | CompatibleTranscriptionStreamEvent, E, R>,
): Effect.Effect<Transcript, E, R> => runAccumulate(self, Acc.TranscriptionAccumulator)

/**
 * A plain accumulator for people who do not use Effect: `add` every event, then read `result()`.
 *
 * @since 0.2.0
 */
export const accumulator = (): Acc.TranscriptionAccumulator => new Acc.TranscriptionAccumulator()
