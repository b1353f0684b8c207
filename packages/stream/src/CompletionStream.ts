/**
 * Streamed completions (`/v1/completions`): bytes -> typed `CompletionChunk`s, and the fold into the final response.
 *
 * @since 0.1.0
 */
import type * as Core from "@friendli-stream/core"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import * as Acc from "./internal/accumulate.ts"
import { type Decode, decodeOf, type FromReadableStream, fromReadableStreamOf } from "./internal/decodeApi.ts"
import * as Apis from "./internal/streamApis.ts"

/**
 * A chunk decoded with `validation: "strict"` (the generated Friendli schema).
 *
 * @since 0.1.0
 */
export type CompletionChunk = Core.CompletionChunk

/**
 * A chunk decoded with `validation: "compatible"` (any OpenAI-compatible server).
 *
 * @since 0.1.0
 */
export type CompatibleCompletionChunk = Core.CompatibleCompletionChunk

/**
 * The final completion a stream folds into.
 *
 * @since 0.1.0
 */
export type Completion = Acc.Completion

/**
 * Decodes a byte stream of `/v1/completions` server-sent events into typed chunks, ending at `data: [DONE]`.
 *
 * @since 0.1.0
 */
export const decode: Decode<CompletionChunk, CompatibleCompletionChunk> = decodeOf(Apis.completions)

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed chunks; the fastest way in, since reads that
 * are already available are decoded together. Ending or interrupting the stream cancels the body.
 *
 * @since 0.1.0
 */
export const fromReadableStream: FromReadableStream<CompletionChunk, CompatibleCompletionChunk> = fromReadableStreamOf(
  Apis.completions,
)

/**
 * Folds a stream of chunks into the final completion, per choice `index`: text concatenated, token ids collected,
 * logprobs arrays appended, the last `finish_reason`, and the last non-null `usage`.
 *
 * @since 0.1.0
 */
export const accumulate = <E, R>(
  self: Stream.Stream<CompletionChunk | CompatibleCompletionChunk, E, R>,
): Effect.Effect<Completion, E, R> => Acc.runAccumulate(self, Acc.CompletionAccumulator)

/**
 * A plain accumulator for people who do not use Effect: `add` every chunk, then read `result()`.
 *
 * @since 0.1.0
 */
export const accumulator = (): Acc.CompletionAccumulator => new Acc.CompletionAccumulator()
