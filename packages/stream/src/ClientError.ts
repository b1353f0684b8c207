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
 * | any other non-2xx (408 retried) | `UnexpectedStatusError`     | 408 only                              |
 * | no connection / connection cut  | `ConnectionError`           | yes, before the first chunk           |
 * | no response / no data in time   | `TimeoutError`              | no                                    |
 * | request fails the schema        | `InvalidRequestError`       | no (never sent)                       |
 *
 * @since 0.1.0
 */
import type * as Core from "@friendli-stream/core"
import type * as Cause from "effect/Cause"
import * as Data from "effect/Data"

// `Data.Error` copies its argument onto the instance; the subclasses below declare (never initialise) their
// fields so that copy is what sets them.
const YieldableBase: new (args: { readonly message: string; readonly cause?: unknown }) => Cause.YieldableError =
  Data.Error as never

/**
 * The tag of every status error.
 *
 * @since 0.1.0
 */
export type StatusErrorTag =
  | "BadRequestError"
  | "AuthenticationError"
  | "PermissionDeniedError"
  | "NotFoundError"
  | "UnprocessableEntityError"
  | "RateLimitError"
  | "ServerError"
  | "UnexpectedStatusError"

/**
 * The base class of every client failure: `error instanceof ClientError` tells it from a decoder failure.
 *
 * @since 0.1.0
 */
export abstract class ClientError extends YieldableBase {
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
export interface StatusErrorArgs {
  readonly message: string
  /** The HTTP status. */
  readonly status: number
  /** The body, when it is one of the three Friendli error shapes (`{error}`, `{message}`, `{detail}`). */
  readonly body: Core.ErrorBody | undefined
  /** The body as text (cut to 4096 characters). */
  readonly text: string
  /** The `x-request-id` response header, to quote to support. */
  readonly requestId: string | undefined
  /** How long the server asked to wait (`Retry-After` / `retry-after-ms`), in milliseconds. */
  readonly retryAfterMs: number | undefined
}

/**
 * The server answered with a status that is not 2xx. Subclasses tell the status family apart.
 *
 * @since 0.1.0
 */
export abstract class StatusError extends ClientError {
  abstract override readonly _tag: StatusErrorTag
  /** The HTTP status. @since 0.1.0 */
  declare readonly status: number
  /** The parsed body, when it is one of the Friendli error shapes. @since 0.1.0 */
  declare readonly body: Core.ErrorBody | undefined
  /** The body as text (cut to 4096 characters). @since 0.1.0 */
  declare readonly text: string
  /** The `x-request-id` response header. @since 0.1.0 */
  declare readonly requestId: string | undefined
  /** How long the server asked to wait before a retry, in milliseconds. @since 0.1.0 */
  declare readonly retryAfterMs: number | undefined

  constructor(args: StatusErrorArgs) {
    super(args)
  }
}

/** 400: the request is malformed. @since 0.1.0 */
export class BadRequestError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "BadRequestError" as const
}

/** 401: the token is missing or not valid. @since 0.1.0 */
export class AuthenticationError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "AuthenticationError" as const
}

/** 403: the token may not use this model, endpoint or team. @since 0.1.0 */
export class PermissionDeniedError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "PermissionDeniedError" as const
}

/** 404: the model, endpoint or path does not exist. @since 0.1.0 */
export class NotFoundError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "NotFoundError" as const
}

/** 422: the server refused the request's fields; `body.detail` lists them. @since 0.1.0 */
export class UnprocessableEntityError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "UnprocessableEntityError" as const
}

/** 429: too many requests; retried after `retryAfterMs` until the retries run out. @since 0.1.0 */
export class RateLimitError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "RateLimitError" as const
}

/** 5xx: the server failed; retried until the retries run out. @since 0.1.0 */
export class ServerError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "ServerError" as const
}

/** Any other status that is not 2xx (405, 408, 409, ...); 408 is retried. @since 0.1.0 */
export class UnexpectedStatusError extends StatusError {
  /** @since 0.1.0 */
  readonly _tag = "UnexpectedStatusError" as const
}

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
export class ConnectionError extends ClientError {
  /** @since 0.1.0 */
  readonly _tag = "ConnectionError" as const
  /** @since 0.1.0 */
  declare readonly reason: ConnectionErrorReason
  /** The URL the request went to. @since 0.1.0 */
  declare readonly url: string

  constructor(args: {
    readonly reason: ConnectionErrorReason
    readonly message: string
    readonly url: string
    readonly cause?: unknown
  }) {
    super(args)
  }
}

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
export class TimeoutError extends ClientError {
  /** @since 0.1.0 */
  readonly _tag = "TimeoutError" as const
  /** @since 0.1.0 */
  declare readonly reason: TimeoutErrorReason
  /** The timeout that ran out, in milliseconds. @since 0.1.0 */
  declare readonly timeoutMs: number

  constructor(args: { readonly reason: TimeoutErrorReason; readonly message: string; readonly timeoutMs: number }) {
    super(args)
  }
}

/**
 * The request body does not match the generated request schema; it was not sent.
 *
 * @since 0.1.0
 */
export class InvalidRequestError extends ClientError {
  /** @since 0.1.0 */
  readonly _tag = "InvalidRequestError" as const
  /** Effect Schema's explanation of what is wrong. @since 0.1.0 */
  declare readonly explanation: string

  constructor(args: { readonly message: string; readonly explanation: string }) {
    super(args)
  }
}

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
export class InvalidResponseError extends ClientError {
  /** @since 0.1.0 */
  readonly _tag = "InvalidResponseError" as const
  /** @since 0.1.0 */
  declare readonly reason: InvalidResponseErrorReason
  /** What was wrong. @since 0.1.0 */
  declare readonly explanation: string
  /** The body as text (cut to 4096 characters). @since 0.1.0 */
  declare readonly text: string
  /** The `x-request-id` response header. @since 0.1.0 */
  declare readonly requestId: string | undefined

  constructor(args: {
    readonly reason: InvalidResponseErrorReason
    readonly message: string
    readonly explanation: string
    readonly text: string
    readonly requestId: string | undefined
  }) {
    super(args)
  }
}

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
export class ClientConfigError extends ClientError {
  /** @since 0.1.0 */
  readonly _tag = "ClientConfigError" as const
  /** @since 0.1.0 */
  declare readonly reason: ClientConfigErrorReason
  /** The option at fault. @since 0.1.0 */
  declare readonly option: string

  constructor(args: { readonly reason: ClientConfigErrorReason; readonly message: string; readonly option: string }) {
    super(args)
  }
}

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

for (const C of [
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  UnprocessableEntityError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
  ConnectionError,
  TimeoutError,
  InvalidRequestError,
  InvalidResponseError,
  ClientConfigError,
]) {
  Object.defineProperty(C.prototype, "name", { value: C.name, configurable: true, writable: true })
}
