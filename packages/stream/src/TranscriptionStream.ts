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
import { runAccumulate } from "./internal/accumulate.ts"
import * as Acc from "./internal/accumulateTranscription.ts"
import { type Decode, decodeOf, type FromReadableStream, fromReadableStreamOf } from "./internal/decodeApi.ts"
import type { CompatibleTranscriptionEvent } from "./internal/protocols/transcription.ts"
import * as Apis from "./internal/streamApis.ts"
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
export const decode: Decode<TranscriptionStreamEvent, CompatibleTranscriptionStreamEvent> = decodeOf(
  Apis.transcriptions,
)

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed events. Ending or interrupting the stream
 * cancels the body.
 *
 * @since 0.2.0
 */
export const fromReadableStream: FromReadableStream<TranscriptionStreamEvent, CompatibleTranscriptionStreamEvent> =
  fromReadableStreamOf(Apis.transcriptions)

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
