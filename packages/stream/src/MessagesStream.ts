/**
 * Streamed Messages (`/v1/messages` with `stream: true`, Anthropic's shape): bytes -> typed events, and the fold into
 * the final message. The stream ends with `message_stop` (nothing after it is read); `event: error` (e.g.
 * `overloaded_error`) fails with `ApiError`; a body that ends before `message_stop` fails with `StreamTruncated`.
 * `ping` events are delivered (Friendli's description does not list them; Anthropic's servers send them).
 *
 * @since 0.2.0
 */
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import { runAccumulateChecked } from "./internal/accumulate.ts"
import * as Acc from "./internal/accumulateMessages.ts"
import { type Decode, decodeOf, type FromReadableStream, fromReadableStreamOf } from "./internal/decodeApi.ts"
import type { CompatibleMessagesEvent, StrictMessagesEvent } from "./internal/protocols/messages.ts"
import * as Apis from "./internal/streamApis.ts"
import type { ToolInputError } from "./StreamError.ts"
import type { UnknownStreamEvent } from "./UnknownStreamEvent.ts"

/**
 * An event decoded with `validation: "strict"` (Friendli's schemas, and `ping`), a discriminated union on `type`.
 *
 * @since 0.2.0
 */
export type MessagesStreamEvent = StrictMessagesEvent

/**
 * An event decoded with `validation: "compatible"`: the known event types with only what the accumulator reads
 * checked (every other field kept), and events of other types as {@link UnknownStreamEvent}.
 *
 * @since 0.2.0
 */
export type CompatibleMessagesStreamEvent = CompatibleMessagesEvent | UnknownStreamEvent

/**
 * The final message a stream folds into.
 *
 * @since 0.2.0
 */
export type Message = Acc.MessageResult

/**
 * A content block of the final message.
 *
 * @since 0.2.0
 */
export type MessageContentBlock = Acc.MessageContentBlock

/**
 * Decodes a byte stream of Messages server-sent events into typed events, ending at `message_stop`.
 *
 * @since 0.2.0
 */
export const decode: Decode<MessagesStreamEvent, CompatibleMessagesStreamEvent> = decodeOf(Apis.messages)

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed events. Ending or interrupting the stream
 * cancels the body.
 *
 * @since 0.2.0
 */
export const fromReadableStream: FromReadableStream<MessagesStreamEvent, CompatibleMessagesStreamEvent> =
  fromReadableStreamOf(Apis.messages)

/**
 * Folds a stream of events into the final message: content blocks by `index` (text concatenated, thinking
 * concatenated with its signature, a tool call's `input_json_delta`s concatenated and parsed into `input` at
 * `content_block_stop`, `ToolInputError` when they are not JSON; citations appended), the stop reason and sequence,
 * and the usage of `message_start` updated by `message_delta`'s running totals.
 *
 * @since 0.2.0
 */
export const accumulate = <E, R>(
  self: Stream.Stream<MessagesStreamEvent | CompatibleMessagesStreamEvent, E, R>,
): Effect.Effect<Message, E | ToolInputError, R> => runAccumulateChecked(self, Acc.MessagesAccumulator)

/**
 * A plain accumulator for people who do not use Effect: `add` every event (it throws `ToolInputError`), then read
 * `result()`.
 *
 * @since 0.2.0
 */
export const accumulator = (): Acc.MessagesAccumulator => new Acc.MessagesAccumulator()
