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
import { runAccumulateChecked } from "./internal/accumulate.ts"
import * as Acc from "./internal/accumulateResponses.ts"
import { type Decode, decodeOf, type FromReadableStream, fromReadableStreamOf } from "./internal/decodeApi.ts"
import type { CompatibleResponsesEvent } from "./internal/protocols/responses.ts"
import * as Apis from "./internal/streamApis.ts"
import type { ToolInputError } from "./StreamError.ts"
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
export const decode: Decode<ResponsesStreamEvent, CompatibleResponsesStreamEvent> = decodeOf(Apis.responses)

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed events. Ending or interrupting the stream
 * cancels the body.
 *
 * @since 0.2.0
 */
export const fromReadableStream: FromReadableStream<ResponsesStreamEvent, CompatibleResponsesStreamEvent> =
  fromReadableStreamOf(Apis.responses)

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
