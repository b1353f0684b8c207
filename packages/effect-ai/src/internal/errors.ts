/**
 * Our typed failures -> `AiError`s: the reason `effect/ai` knows (rate limit, invalid request, network, invalid
 * response, provider error), with our typed error kept as the reason's cause (`failureOf`) and its tag and
 * message in the reason's `metadata.friendli`.
 */
import {
  ConnectionError,
  type FriendliClient,
  InvalidRequestError as InvalidClientRequest,
  type InvalidResponseError,
  isRetryable,
  isStatusError,
  TimeoutError,
} from "@friendli-stream/client"
import { ApiError } from "@friendli-stream/stream"
import * as AiError from "effect/ai/AiError"
import * as Duration from "effect/Duration"

/** Any failure of the client (before a stream, inside it, or of a whole response). */
export type FriendliFailure = FriendliClient.StreamFailure | InvalidResponseError

const causes = new WeakMap<object, FriendliFailure>()

/** Our typed error behind an `AiError` this package made, if it made it. */
export const failureOf = (error: AiError.AiError): FriendliFailure | undefined => causes.get(error.reason)

/** The `AiError` of one of our failures, in `module` (the model that failed). */
export const toAiError = (
  method: string,
  error: FriendliFailure,
  module = "FriendliLanguageModel",
): AiError.AiError => {
  const metadata = { friendli: { _tag: error._tag, message: error.message, retryable: isRetryable(error) } }
  let reason: AiError.AiErrorReason
  if (isStatusError(error)) {
    const http = { response: { status: error.status, headers: {} }, body: error.text }
    if (error.status === 429) {
      reason = new AiError.RateLimitError({
        metadata,
        http,
        ...(error.retryAfterMs === undefined ? {} : { retryAfter: Duration.millis(error.retryAfterMs) }),
      })
    } else if (error.status === 400 || error.status === 404 || error.status === 422) {
      reason = new AiError.InvalidRequestError({ description: error.message, metadata, http })
    } else {
      reason = AiError.reasonFromHttpStatus({ status: error.status, http, metadata, description: error.message })
    }
  } else if (error instanceof ConnectionError) {
    reason = new AiError.NetworkError({
      reason: "TransportError",
      method: "POST",
      url: error.url,
      description: error.message,
      cause: error,
    })
  } else if (error instanceof TimeoutError) {
    reason = new AiError.InternalProviderError({ description: error.message, metadata })
  } else if (error instanceof InvalidClientRequest) {
    reason = new AiError.InvalidRequestError({ description: error.message, metadata })
  } else if (error instanceof ApiError) {
    reason = error.retryable
      ? new AiError.InternalProviderError({ description: error.message, metadata })
      : new AiError.InvalidRequestError({ description: error.message, metadata })
  } else {
    reason = new AiError.InvalidResponseError({ description: error.message, metadata })
  }
  causes.set(reason, error)
  return AiError.make({ module, method, reason })
}
