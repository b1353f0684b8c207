/**
 * How an upstream failure becomes a stream's end: an in-stream API error ends with `error` and the error object the
 * upstream sent, any other failure with `error` and the OpenAI error shape (as the client's `toResponse()` writes
 * it), a cut body (`StreamTruncated`) with `truncated`. The only module that looks at the client's error classes.
 */
import { ApiError, StreamTruncated } from "@friendli-stream/stream"
import { type End, endEvent } from "../ResumableStore.ts"

/** `{ message, type, code }` of a failure, as the client's `toResponse()` writes it in its `event: error`. */
const errorObject = (error: unknown): { message: string; type: string; code: string | number | null } => {
  const e = error as { message?: unknown; _tag?: unknown; type?: unknown; code?: unknown; status?: unknown } | null
  const message = typeof e?.message === "string" ? e.message : String(error)
  const type = typeof e?.type === "string" ? e.type : typeof e?._tag === "string" ? e._tag : "error"
  const code =
    typeof e?.code === "string" || typeof e?.code === "number"
      ? e.code
      : typeof e?.status === "number"
        ? e.status
        : null
  return { message, type, code }
}

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
