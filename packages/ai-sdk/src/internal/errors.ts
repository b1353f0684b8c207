/**
 * Our typed errors -> the AI SDK's: an HTTP status, a connection failure or an in-stream `ApiError` becomes an
 * `APICallError` whose `isRetryable` is our client's own judgement and whose `cause` is the typed error; any
 * other failure (a cut stream, a chunk that does not decode, a timeout) stays the typed error it is.
 */
import { APICallError } from "@ai-sdk/provider"
import { ConnectionError, isRetryable, isStatusError } from "@friendli-stream/client"
import { ApiError } from "@friendli-stream/stream"

/** Where the failed request went. */
export interface CallSite {
  readonly url: string
  readonly body: unknown
  readonly headers: Record<string, string>
}

/** The error the AI SDK should see for a failure of our client. */
export const toCallError = (error: unknown, site: CallSite): unknown => {
  if (isStatusError(error)) {
    return new APICallError({
      message: error.message,
      url: site.url,
      requestBodyValues: site.body,
      statusCode: error.status,
      responseHeaders: site.headers,
      responseBody: error.text,
      cause: error,
      isRetryable: isRetryable(error),
      data: error.body,
    })
  }
  if (error instanceof ApiError || error instanceof ConnectionError) {
    return new APICallError({
      message: error.message,
      url: site.url,
      requestBodyValues: site.body,
      ...(error instanceof ApiError ? { responseHeaders: site.headers } : {}),
      cause: error,
      isRetryable: isRetryable(error),
      data: error instanceof ApiError ? error.body : undefined,
    })
  }
  return error
}
