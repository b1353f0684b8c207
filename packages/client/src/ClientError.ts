/**
 * The typed failures of the Friendli client: HTTP statuses (one class per status family, sharing
 * {@link StatusError}), connection failures, timeouts, invalid requests, responses and options. Every one is a
 * tagged class (`_tag`) that extends {@link ClientError}; failures inside a stream that arrived with status 200
 * are the decoder's `StreamError`s.
 *
 * | status / cause                  | class                       | retried                               |
 * | ------------------------------- | --------------------------- | ------------------------------------- |
 * | 400                             | `BadRequestError`           | no                                    |
 * | 401                             | `AuthenticationError`       | no                                    |
 * | 403                             | `PermissionDeniedError`     | no                                    |
 * | 404                             | `NotFoundError`             | no                                    |
 * | 422                             | `UnprocessableEntityError`  | no                                    |
 * | 429                             | `RateLimitError`            | yes, after `Retry-After`              |
 * | 5xx                             | `ServerError`               | yes, after `Retry-After` or a backoff |
 * | any other non-2xx               | `UnexpectedStatusError`     | 408, 409 and 425                      |
 * | no connection / connection cut  | `ConnectionError`           | yes, before the first chunk           |
 * | no response / no data in time   | `TimeoutError`              | no                                    |
 * | request fails the schema        | `InvalidRequestError`       | no (never sent)                       |
 *
 * @since 0.1.0
 */
import type * as Core from "@friendli-stream/core"
import type { StatusTag } from "@friendli-stream/stream/internal"
import { ErrorBase, tagged, withFields } from "@friendli-stream/stream/internal"

/**
 * The tag of every status error.
 *
 * @since 0.1.0
 */
export type StatusErrorTag = StatusTag

/**
 * The base class of every client failure: `error instanceof ClientError` tells it from a decoder failure.
 *
 * @since 0.1.0
 */
export abstract class ClientError extends ErrorBase {
  /**
   * Which failure this is.
   *
   * @since 0.1.0
   */
  abstract readonly _tag:
    | StatusErrorTag
    | "ConnectionError"
    | "TimeoutError"
    | "InvalidRequestError"
    | "InvalidResponseError"
    | "ClientConfigError"
}

/**
 * What every status error carries.
 *
 * @since 0.1.0
 */
export interface StatusErrorFields {
  /** The HTTP status. @since 0.1.0 */
  readonly status: number
  /** The body, when it is one of the three Friendli error shapes (`{error}`, `{message}`, `{detail}`). @since 0.1.0 */
  readonly body: Core.ErrorBody | undefined
  /** The body as text (cut to 4096 characters). @since 0.1.0 */
  readonly text: string
  /** The `x-request-id` response header, to quote to support. @since 0.1.0 */
  readonly requestId: string | undefined
  /** How long the server asked to wait (`Retry-After` / `retry-after-ms`), in milliseconds. @since 0.1.0 */
  readonly retryAfterMs: number | undefined
}

/**
 * The server answered with a status that is not 2xx. Subclasses tell the status family apart.
 *
 * @since 0.1.0
 */
export abstract class StatusError extends withFields<StatusErrorFields>()(ClientError) {
  /** Which status family this is. @since 0.1.0 */
  abstract override readonly _tag: StatusErrorTag
}

/** 400: the request is malformed. @since 0.1.0 */
export class BadRequestError extends tagged(StatusError, "BadRequestError")() {}

/** 401: the token is missing or not valid. @since 0.1.0 */
export class AuthenticationError extends tagged(StatusError, "AuthenticationError")() {}

/** 403: the token may not use this model, endpoint or team. @since 0.1.0 */
export class PermissionDeniedError extends tagged(StatusError, "PermissionDeniedError")() {}

/** 404: the model, endpoint or path does not exist. @since 0.1.0 */
export class NotFoundError extends tagged(StatusError, "NotFoundError")() {}

/** 422: the server refused the request's fields; `body.detail` lists them. @since 0.1.0 */
export class UnprocessableEntityError extends tagged(StatusError, "UnprocessableEntityError")() {}

/** 429: too many requests; retried after `retryAfterMs` until the retries run out. @since 0.1.0 */
export class RateLimitError extends tagged(StatusError, "RateLimitError")() {}

/** 5xx: the server failed; retried until the retries run out. @since 0.1.0 */
export class ServerError extends tagged(StatusError, "ServerError")() {}

/** Any other status that is not 2xx (405, 408, 409, ...); 408, 409 and 425 are retried. @since 0.1.0 */
export class UnexpectedStatusError extends tagged(StatusError, "UnexpectedStatusError")() {}

/**
 * Why the connection failed.
 *
 * - `Send`: the request could not be sent or no response came (refused, reset, DNS, TLS).
 * - `Receive`: the connection broke while the response body was being read.
 *
 * @since 0.1.0
 */
export type ConnectionErrorReason = "Send" | "Receive"

/**
 * The connection failed. Retried when no chunk had been delivered yet.
 *
 * @since 0.1.0
 */
export class ConnectionError extends tagged(ClientError, "ConnectionError")<{
  /** Which kind of failure. @since 0.1.0 */
  readonly reason: ConnectionErrorReason
  /** The URL the request went to. @since 0.1.0 */
  readonly url: string
}>() {}

/**
 * Which wait ran out.
 *
 * - `FirstByte`: no response (status and headers) came within `firstByteTimeoutMs` of sending the request.
 * - `Idle`: no data event came within `idleTimeoutMs` (keep-alive comments do not count).
 *
 * @since 0.1.0
 */
export type TimeoutErrorReason = "FirstByte" | "Idle"

/**
 * A timeout ran out; the request was aborted.
 *
 * @since 0.1.0
 */
export class TimeoutError extends tagged(ClientError, "TimeoutError")<{
  /** Which wait ran out. @since 0.1.0 */
  readonly reason: TimeoutErrorReason
  /** The timeout that ran out, in milliseconds. @since 0.1.0 */
  readonly timeoutMs: number
}>() {}

/**
 * The request body does not match the generated request schema; it was not sent.
 *
 * @since 0.1.0
 */
export class InvalidRequestError extends tagged(ClientError, "InvalidRequestError")<{
  /** Effect Schema's explanation of what is wrong. @since 0.1.0 */
  readonly explanation: string
}>() {}

/**
 * Why a non-streamed response could not be read.
 *
 * @since 0.1.0
 */
export type InvalidResponseErrorReason = "MalformedJson" | "SchemaMismatch"

/**
 * A non-streamed (`create`) response with status 2xx is not the documented JSON.
 *
 * @since 0.1.0
 */
export class InvalidResponseError extends tagged(ClientError, "InvalidResponseError")<{
  /** Which kind of failure. @since 0.1.0 */
  readonly reason: InvalidResponseErrorReason
  /** What was wrong. @since 0.1.0 */
  readonly explanation: string
  /** The body as text (cut to 4096 characters). @since 0.1.0 */
  readonly text: string
  /** The `x-request-id` response header. @since 0.1.0 */
  readonly requestId: string | undefined
}>() {}

/**
 * Why the client options were refused.
 *
 * - `MissingToken`: Friendli's cloud needs a token: pass `token` or set `FRIENDLI_TOKEN`.
 * - `InvalidOption`: an option has a value it cannot take (`option` names it).
 *
 * @since 0.1.0
 */
export type ClientConfigErrorReason = "MissingToken" | "InvalidOption"

/**
 * The client options cannot make a working client.
 *
 * @since 0.1.0
 */
export class ClientConfigError extends tagged(ClientError, "ClientConfigError")<{
  /** Which kind of failure. @since 0.1.0 */
  readonly reason: ClientConfigErrorReason
  /** The option at fault. @since 0.1.0 */
  readonly option: string
}>() {}

/**
 * Any status error, as a union of its classes (narrow it with `_tag`).
 *
 * @since 0.1.0
 */
export type AnyStatusError =
  | BadRequestError
  | AuthenticationError
  | PermissionDeniedError
  | NotFoundError
  | UnprocessableEntityError
  | RateLimitError
  | ServerError
  | UnexpectedStatusError

/**
 * Any failure of a request before its stream starts, or of a non-streamed request's transport.
 *
 * @since 0.1.0
 */
export type RequestFailure = AnyStatusError | ConnectionError | TimeoutError | InvalidRequestError

/**
 * Tells whether a value is one of the client's failures.
 *
 * @since 0.1.0
 */
export const isClientError = (u: unknown): u is RequestFailure | InvalidResponseError | ClientConfigError =>
  u instanceof ClientError

/**
 * Tells whether a value is a status error (any non-2xx answer).
 *
 * @since 0.1.0
 */
export const isStatusError = (u: unknown): u is AnyStatusError => u instanceof StatusError
