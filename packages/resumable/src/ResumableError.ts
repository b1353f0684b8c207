/**
 * The typed failures of resumable streams: tagged classes under {@link ResumableError}, each with a message that
 * says what was wrong and what to do, and a `reason` where a class covers more than one case.
 *
 * @since 0.3.0
 */
import { ErrorBase, tagged } from "@friendli-stream/stream/internal"

/**
 * The base class of every resumable-stream failure: `error instanceof ResumableError` tells them from any other.
 *
 * @since 0.3.0
 */
export abstract class ResumableError extends ErrorBase {
  /**
   * Which failure this is.
   *
   * @since 0.3.0
   */
  abstract readonly _tag: "StreamNotFound" | "StreamExists" | "LeaseLost" | "StoreError" | "InvalidEventId"
}

/**
 * No stream has this id: it never existed, or it ended longer ago than the retention time.
 *
 * @since 0.3.0
 */
export class StreamNotFound extends tagged(ResumableError, "StreamNotFound")<{
  /** The id that was asked for. @since 0.3.0 */
  readonly streamId: string
}>() {}

/**
 * A stream with this id exists or existed within the retention time: stream ids are never re-used.
 *
 * @since 0.3.0
 */
export class StreamExists extends tagged(ResumableError, "StreamExists")<{
  /** The id that was asked for. @since 0.3.0 */
  readonly streamId: string
}>() {}

/**
 * Why a producer may no longer write into its stream.
 *
 * - `Expired`: the lease was not renewed in time (a reader may already have stored a `producer_lost` end).
 * - `Cancelled`: the stream was cancelled (`DELETE`); the producer should abort its upstream request.
 * - `Ended`: the stream already has its end.
 *
 * @since 0.3.0
 */
export type LeaseLostReason = "Expired" | "Cancelled" | "Ended"

/**
 * The producer's lease is gone (fencing): an `append`, `renew` or `finish` with it writes nothing.
 *
 * @since 0.3.0
 */
export class LeaseLost extends tagged(ResumableError, "LeaseLost")<{
  /** Why the lease is gone. @since 0.3.0 */
  readonly reason: LeaseLostReason
  /** The stream the lease was for. @since 0.3.0 */
  readonly streamId: string
}>() {}

/**
 * Why a store could not do what it was asked.
 *
 * - `Unavailable`: the storage could not be reached or failed (a connection error, a rejected command).
 * - `Corrupt`: the storage holds data this package did not write or cannot read.
 * - `Closed`: the store was closed (its layer's scope ended).
 *
 * @since 0.3.0
 */
export type StoreErrorReason = "Unavailable" | "Corrupt" | "Closed"

/**
 * The store failed; `cause` holds the underlying error, when there is one.
 *
 * @since 0.3.0
 */
export class StoreError extends tagged(ResumableError, "StoreError")<{
  /** Which kind of failure. @since 0.3.0 */
  readonly reason: StoreErrorReason
}>() {}

/**
 * Why an event id (`Last-Event-ID`) was refused.
 *
 * - `Malformed`: it is not an id this package wrote (`<streamId>.<seq>`).
 * - `Foreign`: it names another stream than the one asked for.
 * - `NotSent`: it names an event past the last one the stream stored (a made-up seq).
 *
 * @since 0.3.0
 */
export type InvalidEventIdReason = "Malformed" | "Foreign" | "NotSent"

/**
 * A `Last-Event-ID` that cannot be resumed from.
 *
 * @since 0.3.0
 */
export class InvalidEventId extends tagged(ResumableError, "InvalidEventId")<{
  /** Which kind of failure. @since 0.3.0 */
  readonly reason: InvalidEventIdReason
  /** The id as it was given. @since 0.3.0 */
  readonly eventId: string
  /** The stream it was given for. @since 0.3.0 */
  readonly streamId: string
}>() {}
