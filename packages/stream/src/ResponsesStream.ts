/**
 * Streamed Responses (`/v1/responses` with `stream: true`): bytes -> typed events, and the fold into the final
 * response. The stream ends with `response.completed` or `response.incomplete` (delivered; nothing after it is
 * read); `response.failed` fails with `ApiError`; a body that ends before one of them fails with `StreamTruncated`.
 *
 * @since 0.2.0
 */
import type * as Core from "@friendli-stream/core"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "./DecodeOptions.ts"
import { runAccumulateChecked } from "./internal/accumulate.ts"
import * as Acc from "./internal/accumulateResponses.ts"
import { bodyStream, dualDecode } from "./internal/fronts.ts"
import { responses } from "./internal/protocolFronts.ts"
import type { CompatibleResponsesEvent } from "./internal/protocols/responses.ts"
import type { ReadableByteStream } from "./Sse.ts"
import type { DecodeError, ToolInputError } from "./StreamError.ts"
import type { UnknownStreamEvent } from "./UnknownStreamEvent.ts"

/**
 * An event decoded with `validation: "strict"` (Friendli's schemas), a discriminated union on `type`.
 *
 * @since 0.2.0
 */
export type ResponsesStreamEvent = Core.ResponsesStreamEvent

/**
 * An event decoded with `validation: "compatible"`: the known event types with only what the accumulator reads
 * checked (every other field kept), and events of other types as {@link UnknownStreamEvent}.
 *
 * @since 0.2.0
 */
export type CompatibleResponsesStreamEvent = CompatibleResponsesEvent | UnknownStreamEvent

/**
 * The final response a stream folds into.
 *
 * @since 0.2.0
 */
export type Response = Acc.ResponseResult

/**
 * An output item of the final response.
 *
 * @since 0.2.0
 */
export type ResponseOutputItem = Acc.ResponseOutputItem

/**
 * Decodes a byte stream of Responses server-sent events into typed events, ending at the terminal event.
 *
 * @since 0.2.0
 */
export const decode: {
  (
    options?: StrictOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<ResponsesStreamEvent, E | DecodeError, R>
  (
    options: CompatibleOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<CompatibleResponsesStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options?: StrictOptions,
  ): Stream.Stream<ResponsesStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options: CompatibleOptions,
  ): Stream.Stream<CompatibleResponsesStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options: DecodeOptions,
  ): Stream.Stream<ResponsesStreamEvent | CompatibleResponsesStreamEvent, E | DecodeError, R>
  (
    options: DecodeOptions,
  ): <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
  ) => Stream.Stream<ResponsesStreamEvent | CompatibleResponsesStreamEvent, E | DecodeError, R>
} = dualDecode(responses.choose, responses.end) as never

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed events. Ending or interrupting the stream
 * cancels the body.
 *
 * @since 0.2.0
 */
export const fromReadableStream: {
  (body: ReadableByteStream, options?: StrictOptions): Stream.Stream<ResponsesStreamEvent, DecodeError>
  (body: ReadableByteStream, options: CompatibleOptions): Stream.Stream<CompatibleResponsesStreamEvent, DecodeError>
  (
    body: ReadableByteStream,
    options: DecodeOptions,
  ): Stream.Stream<ResponsesStreamEvent | CompatibleResponsesStreamEvent, DecodeError>
} = ((body: ReadableByteStream, options?: DecodeOptions) =>
  bodyStream(body, responses.choose, options, responses.end)) as never

/**
 * Folds a stream of events into the final response: output items by `output_index`, text and reasoning deltas
 * concatenated per content part, function call arguments concatenated and parsed into `parsed_arguments` when the
 * call is done or the response completed (`ToolInputError` when they are not JSON), each `*.done` event's value replacing what the deltas
 * built, `output_text` (every message's text joined), and the id, model, status, usage, `incomplete_details` and
 * `error` of the last lifecycle event.
 *
 * @since 0.2.0
 */
export const accumulate = <E, R>(
  self: Stream.Stream<ResponsesStreamEvent | CompatibleResponsesStreamEvent, E, R>,
): Effect.Effect<Response, E | ToolInputError, R> => runAccumulateChecked(self, Acc.ResponsesAccumulator)

/**
 * A plain accumulator for people who do not use Effect: `add` every event (it throws `ToolInputError`), then read
 * `result()`.
 *
 * @since 0.2.0
 */
export const accumulator = (): Acc.ResponsesAccumulator => new Acc.ResponsesAccumulator()
