/**
 * How an upstream failure becomes a stream's end: an in-stream API error ends with `error` and the error object the
 * upstream sent, any other failure with `error` and the OpenAI error shape (as the client's `toResponse()` writes
 * it), a cut body (`StreamTruncated`) with `truncated`. The only module that looks at the client's error classes.
 */
import { ApiError, StreamTruncated } from "@friendli-stream/stream"
import { errorObject } from "@friendli-stream/stream/internal"
import { type End, endEvent } from "../ResumableStore.ts"

/** The end that records an upstream failure. */
export const failureEnd = (error: unknown): End => {
  if (error instanceof StreamTruncated) {
    return endEvent("truncated", `The upstream response ended before its end: ${error.message}`)
  }
  // an in-stream error as the upstream sent it
  if (error instanceof ApiError && typeof error.body === "object" && error.body !== null) {
    return { reason: "error", event: "error", data: JSON.stringify({ error: error.body }) }
  }
  return { reason: "error", event: "error", data: JSON.stringify({ error: errorObject(error) }) }
}
