/**
 * The typed failures of a decoded stream. Every one is a tagged class (`_tag`) that extends {@link StreamError},
 * carries a message a person can act on and, where a family has more than one kind, a `reason`.
 *
 * @since 0.1.0
 */
import { ErrorBase, tagged } from "./internal/tagged.ts"

/**
 * The base class of every decoder failure: `error instanceof StreamError` tells a decoder failure from any other.
 *
 * @since 0.1.0
 */
export abstract class StreamError extends ErrorBase {
  /**
   * Which failure family this is.
   *
   * @since 0.1.0
   */
  abstract readonly _tag: "SseError" | "StreamTruncated" | "ApiError" | "ChunkDecodeError"
}

/**
 * Why the event stream itself could not be read.
 *
 * - `EventTooLarge`: one line or event grew past `maxEventBytes` (with or without a line end ever arriving).
 * - `ReadFailed`: the body could not be read (the connection failed or the body was already locked).
 *
 * @since 0.1.0
 */
export type SseErrorReason = "EventTooLarge" | "ReadFailed"

/**
 * The event stream itself could not be read.
 *
 * @since 0.1.0
 */
export class SseError extends tagged(StreamError, "SseError")<{
  /** Which kind of failure of the family. @since 0.1.0 */
  readonly reason: SseErrorReason
  /** Bytes read from the body before the failure. @since 0.1.0 */
  readonly bytesRead: number
  /** The limit in force, for `EventTooLarge`. @since 0.1.0 */
  readonly maxEventBytes: number
}>() {}

/**
 * The body ended before `data: [DONE]` (or in the middle of an event). Every whole chunk before the end was delivered.
 *
 * @since 0.1.0
 */
export class StreamTruncated extends tagged(StreamError, "StreamTruncated")<{
  /** Whether the body ended in the middle of an event (a line or event started and never finished). @since 0.1.0 */
  readonly midEvent: boolean
  /** How many events the body held before the end (every event SSE dispatches, empty ones included). @since 0.1.0 */
  readonly eventsDelivered: number
  /** Bytes read from the body. @since 0.1.0 */
  readonly bytesRead: number
}>() {}

/**
 * The server reported an error inside a successful (HTTP 200) stream: an event named `error`, or an unnamed event
 * whose JSON has an `error` member. (A failed built-in tool's `event: tool_status` is not one: it arrives as an
 * `ERRORED` tool status.)
 *
 * @since 0.1.0
 */
export class ApiError extends tagged(StreamError, "ApiError")<{
  /** The error's `type` (e.g. `"invalid_request_error"`), when the server sent one. @since 0.1.0 */
  readonly type: string | undefined
  /** The error's `code` (a string or an HTTP-like status number), when the server sent one. @since 0.1.0 */
  readonly code: string | number | undefined
  /** Whether sending the same request again could succeed (rate limits, overload, server errors, timeouts). @since 0.1.0 */
  readonly retryable: boolean
  /** The error object as the server sent it. @since 0.1.0 */
  readonly body: unknown
  /** The 0-based position of the event that carried the error, among every event SSE dispatches. @since 0.1.0 */
  readonly eventIndex: number
}>() {}

/**
 * Why an event's data could not become a chunk.
 *
 * - `MalformedJson`: the data is not JSON.
 * - `SchemaMismatch`: the data is JSON of the wrong shape; `explanation` says what was wrong.
 *
 * @since 0.1.0
 */
export type ChunkDecodeErrorReason = "MalformedJson" | "SchemaMismatch"

/**
 * An event's data could not be decoded into a chunk.
 *
 * @since 0.1.0
 */
export class ChunkDecodeError extends tagged(StreamError, "ChunkDecodeError")<{
  /** Which kind of failure of the family. @since 0.1.0 */
  readonly reason: ChunkDecodeErrorReason
  /** The offending data, cut to at most 512 characters. @since 0.1.0 */
  readonly text: string
  /** The 0-based position of the event among the stream's events (empty ones included). @since 0.1.0 */
  readonly eventIndex: number
  /** The event's last event id, when the server sent ids. @since 0.1.0 */
  readonly eventId: string | undefined
  /** What was wrong: the JSON parser's message, or Effect Schema's formatted explanation. @since 0.1.0 */
  readonly explanation: string
}>() {}

/**
 * Any failure of a decoded stream.
 *
 * @since 0.1.0
 */
export type DecodeError = SseError | StreamTruncated | ApiError | ChunkDecodeError

/**
 * Tells whether a value is one of this package's failures.
 *
 * @since 0.1.0
 */
export const isStreamError = (u: unknown): u is DecodeError => u instanceof StreamError

/**
 * Why a tool call's arguments could not be read once the call was done.
 *
 * - `MalformedJson`: the concatenated argument text (Responses `arguments`, Messages `input_json_delta`s) is not JSON.
 *
 * @since 0.2.0
 */
export type ToolInputErrorReason = "MalformedJson"

/**
 * Accumulating a Responses or Messages stream found a finished tool call whose arguments are not JSON. It is not a
 * decoder failure (every event was well formed): the model wrote arguments that do not parse.
 *
 * @since 0.2.0
 */
export class ToolInputError extends tagged(ErrorBase, "ToolInputError")<{
  /** Which kind of failure of the family. @since 0.2.0 */
  readonly reason: ToolInputErrorReason
  /** The call's id (Responses `call_id`, Messages tool_use `id`), when the server sent one. @since 0.2.0 */
  readonly callId: string | undefined
  /** The tool's name, when the server sent one. @since 0.2.0 */
  readonly name: string | undefined
  /** The call's position: Responses `output_index`, Messages content block `index`. @since 0.2.0 */
  readonly index: number
  /** The argument text, cut to at most 512 characters. @since 0.2.0 */
  readonly text: string
  /** The JSON parser's message. @since 0.2.0 */
  readonly explanation: string
}>() {}
