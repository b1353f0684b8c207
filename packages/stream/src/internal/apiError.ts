/** Errors reported inside a 200 stream, turned into `ApiError`; and any failure written in that same shape. */
import { ApiError } from "../StreamError.ts"
import { sentence } from "./sentence.ts"
import { statusRule } from "./status.ts"

// `api_error`: Anthropic's (and OpenAI's) type for an unexpected error on the server's side (a 500)
const RETRYABLE_WORDS =
  /rate.?limit|overload|server.?error|^api_error$|internal|timeout|timed.?out|unavailable|capacity|too.?many/i

const asRecord = (u: unknown): Record<string, unknown> | undefined =>
  typeof u === "object" && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>) : undefined

const str = (u: unknown): string | undefined => (typeof u === "string" && u.length > 0 ? u : undefined)

/** Whether a retry of the same request could help, judged from the code, status and type. */
export const isRetryable = (code: unknown, status: unknown, type: unknown, message: string): boolean => {
  for (const n of [code, status]) {
    const num = typeof n === "number" ? n : typeof n === "string" && /^\d{3}$/.test(n) ? Number(n) : undefined
    if (num !== undefined) return statusRule(num).retryable
  }
  for (const w of [code, type]) if (typeof w === "string" && RETRYABLE_WORDS.test(w)) return true
  // Nothing machine-readable: judge by the words of the message.
  return code === undefined && type === undefined && RETRYABLE_WORDS.test(message)
}

/** Whether a parsed chunk carries an `error` member. */
export const hasErrorMember = (value: unknown): boolean =>
  typeof value === "object" && value !== null && (value as { error?: unknown }).error != null

/** Builds the `ApiError` for an error object (or text) sent by the server. */
export const toApiError = (value: unknown, eventIndex: number): ApiError => {
  const outer = asRecord(value)
  const inner = outer !== undefined && outer.error != null ? outer.error : value
  const err = asRecord(inner)
  const text = typeof inner === "string" ? inner : undefined
  const message =
    str(err?.message) ??
    str(err?.detail) ??
    (text === "" ? "an error event without details" : text) ??
    JSON.stringify(inner) ??
    "an error without details"
  const type = str(err?.type)
  const rawCode = err?.code ?? err?.status_code ?? err?.status ?? outer?.status_code
  const code = typeof rawCode === "string" || typeof rawCode === "number" ? rawCode : undefined
  const retryable = isRetryable(code, err?.status_code ?? err?.status, type, message)
  const details = [type && `type ${type}`, code !== undefined && `code ${code}`].filter(Boolean).join(", ")
  return new ApiError({
    message:
      `The server reported an error inside the stream (event ${eventIndex}${details ? `, ${details}` : ""}): ` +
      `${sentence(message)} ${retryable ? "Retrying the request may help." : "Retrying the same request will not help; fix the request."}`,
    type,
    code,
    retryable,
    body: inner,
    eventIndex,
  })
}

/**
 * A failure in the OpenAI error shape that `ApiError` is read from: `type` is the error's `type` or class (`_tag`),
 * `code` its code or status. The client's `toResponse()` and the resumable streams' stored ends write it.
 */
export const errorObject = (
  error: unknown,
): { readonly message: string; readonly type: string; readonly code: string | number | null } => {
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
