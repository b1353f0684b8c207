/**
 * A stream as the answer to an HTTP request (`StreamHandle.toResponse`): `200 text/event-stream` once the first item
 * is there, or, for a failure before it, a JSON error whose status says whose fault it was, read from the typed
 * error (never from its SSE re-encoding).
 */

import { ApiError, SseResponse } from "@friendli-stream/stream"
import { errorObject, statusRule } from "@friendli-stream/stream/internal"
import { InvalidRequestError, StatusError, TimeoutError } from "../ClientError.ts"
import { type HeadersInitLike, makeResponse, type WebReadableStream, type WebResponse } from "./globals.ts"

/**
 * The status of a failure before the first item: the upstream's own for a request-side 4xx, 400 for a request
 * that fails the schema, 504 for a timeout, and 502 for the rest (the server's credentials refused with 401/403,
 * a 5xx, a connection error, a stream that broke or said it failed).
 */
export const failureStatus = (error: unknown): number => {
  if (error instanceof InvalidRequestError) return 400
  if (error instanceof TimeoutError) return 504
  if (error instanceof StatusError) return statusRule(error.status).passOn ? error.status : 502
  if (error instanceof ApiError && typeof error.code === "number" && statusRule(error.code).passOn) return error.code
  return 502
}

/** A failure before the first item as `{ "error": { message, type, code } }`, with `Retry-After` when passed on. */
export const errorResponse = (error: unknown, headers: HeadersInitLike | undefined): WebResponse => {
  const status = failureStatus(error)
  const wait = error instanceof StatusError && status === error.status ? error.retryAfterMs : undefined
  return makeResponse(`${JSON.stringify({ error: errorObject(error) })}\n`, status, headers, {
    "content-type": "application/json",
    ...(wait === undefined ? {} : { "retry-after": String(Math.ceil(wait / 1000)) }),
  })
}

/** The server-sent events as a `200` response, with the proxy-safe headers (`SseResponse.HEADERS`; the
 * caller's `cache-control` or `x-accel-buffering` win). */
export const streamResponse = (body: WebReadableStream, headers: HeadersInitLike | undefined): WebResponse =>
  makeResponse(body, 200, headers, { "content-type": contentType }, otherHeaders)

const { "content-type": contentType = "text/event-stream", ...otherHeaders } = SseResponse.HEADERS
