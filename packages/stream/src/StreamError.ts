/**
 * The typed failures of a decoded stream. Every one is a tagged class (`_tag`) that extends {@link StreamError},
 * carries a message a person can act on and, where a family has more than one kind, a `reason`.
 *
 * @since 0.1.0
 */
import type * as Cause from "effect/Cause"
import * as Data from "effect/Data"

// `Data.Error` copies its argument onto the instance; the subclasses below declare (never initialise) their
// fields so that copy is what sets them.
const YieldableBase: new (args: { readonly message: string; readonly cause?: unknown }) => Cause.YieldableError =
  Data.Error as never

/**
 * The base class of every decoder failure: `error instanceof StreamError` tells a decoder failure from any other.
 *
 * @since 0.1.0
 */
export abstract class StreamError extends YieldableBase {
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
export class SseError extends StreamError {
  /** The failure family. @since 0.1.0 */
  readonly _tag = "SseError" as const
  /** Which kind of failure of the family. @since 0.1.0 */
  declare readonly reason: SseErrorReason
  /** Bytes read from the body before the failure. @since 0.1.0 */
  declare readonly bytesRead: number
  /** The limit in force, for `EventTooLarge`. @since 0.1.0 */
  declare readonly maxEventBytes: number

  constructor(args: {
    readonly reason: SseErrorReason
    readonly message: string
    readonly bytesRead: number
    readonly maxEventBytes: number
    readonly cause?: unknown
  }) {
    super(args)
  }
}

/**
 * The body ended before `data: [DONE]` (or in the middle of an event). Every whole chunk before the end was delivered.
 *
 * @since 0.1.0
 */
export class StreamTruncated extends StreamError {
  /** The failure family. @since 0.1.0 */
  readonly _tag = "StreamTruncated" as const
  /** Whether the body ended in the middle of an event (a line or event started and never finished). @since 0.1.0 */
  declare readonly midEvent: boolean
  /** How many events were delivered before the end. @since 0.1.0 */
  declare readonly eventsDelivered: number
  /** Bytes read from the body. @since 0.1.0 */
  declare readonly bytesRead: number

  constructor(args: {
    readonly message: string
    readonly midEvent: boolean
    readonly eventsDelivered: number
    readonly bytesRead: number
  }) {
    super(args)
  }
}

/**
 * The server reported an error inside a successful (HTTP 200) stream: a JSON object with an `error` member, or an
 * event named `error`.
 *
 * @since 0.1.0
 */
export class ApiError extends StreamError {
  /** The failure family. @since 0.1.0 */
  readonly _tag = "ApiError" as const
  /** The error's `type` (e.g. `"invalid_request_error"`), when the server sent one. @since 0.1.0 */
  declare readonly type: string | undefined
  /** The error's `code` (a string or an HTTP-like status number), when the server sent one. @since 0.1.0 */
  declare readonly code: string | number | undefined
  /** Whether sending the same request again could succeed (rate limits, overload, server errors, timeouts). @since 0.1.0 */
  declare readonly retryable: boolean
  /** The error object as the server sent it. @since 0.1.0 */
  declare readonly body: unknown
  /** The 0-based position of the event that carried the error. @since 0.1.0 */
  declare readonly eventIndex: number

  constructor(args: {
    readonly message: string
    readonly type: string | undefined
    readonly code: string | number | undefined
    readonly retryable: boolean
    readonly body: unknown
    readonly eventIndex: number
  }) {
    super(args)
  }
}

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
export class ChunkDecodeError extends StreamError {
  /** The failure family. @since 0.1.0 */
  readonly _tag = "ChunkDecodeError" as const
  /** Which kind of failure of the family. @since 0.1.0 */
  declare readonly reason: ChunkDecodeErrorReason
  /** The offending data, cut to at most 512 characters. @since 0.1.0 */
  declare readonly text: string
  /** The 0-based position of the event among the stream's events. @since 0.1.0 */
  declare readonly eventIndex: number
  /** The event's last event id, when the server sent ids. @since 0.1.0 */
  declare readonly eventId: string | undefined
  /** What was wrong: the JSON parser's message, or Effect Schema's formatted explanation. @since 0.1.0 */
  declare readonly explanation: string

  constructor(args: {
    readonly reason: ChunkDecodeErrorReason
    readonly message: string
    readonly text: string
    readonly eventIndex: number
    readonly eventId: string | undefined
    readonly explanation: string
  }) {
    super(args)
  }
}

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

for (const C of [SseError, StreamTruncated, ApiError, ChunkDecodeError]) {
  Object.defineProperty(C.prototype, "name", { value: C.name, configurable: true, writable: true })
}
