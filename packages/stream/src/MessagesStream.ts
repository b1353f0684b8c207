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
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "./DecodeOptions.ts"
import { runAccumulateChecked } from "./internal/accumulate.ts"
import * as Acc from "./internal/accumulateMessages.ts"
import { bodyStream, dualDecode } from "./internal/fronts.ts"
import { messages } from "./internal/protocolFronts.ts"
import type { CompatibleMessagesEvent, StrictMessagesEvent } from "./internal/protocols/messages.ts"
import type { ReadableByteStream } from "./Sse.ts"
import type { DecodeError, ToolInputError } from "./StreamError.ts"
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
export const decode: {
  (
    options?: StrictOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<MessagesStreamEvent, E | DecodeError, R>
  (
    options: CompatibleOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<CompatibleMessagesStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options?: StrictOptions,
  ): Stream.Stream<MessagesStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options: CompatibleOptions,
  ): Stream.Stream<CompatibleMessagesStreamEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options: DecodeOptions,
  ): Stream.Stream<MessagesStreamEvent | CompatibleMessagesStreamEvent, E | DecodeError, R>
  (
    options: DecodeOptions,
  ): <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
  ) => Stream.Stream<MessagesStreamEvent | CompatibleMessagesStreamEvent, E | DecodeError, R>
} = dualDecode(messages.choose, messages.end) as never

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed events. Ending or interrupting the stream
 * cancels the body.
 *
 * @since 0.2.0
 */
export const fromReadableStream: {
  (body: ReadableByteStream, options?: StrictOptions): Stream.Stream<MessagesStreamEvent, DecodeError>
  (body: ReadableByteStream, options: CompatibleOptions): Stream.Stream<CompatibleMessagesStreamEvent, DecodeError>
  (
    body: ReadableByteStream,
    options: DecodeOptions,
  ): Stream.Stream<MessagesStreamEvent | CompatibleMessagesStreamEvent, DecodeError>
} = ((body: ReadableByteStream, options?: DecodeOptions) =>
  bodyStream(body, messages.choose, options, messages.end)) as never

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
