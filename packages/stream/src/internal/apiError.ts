/** Errors reported inside a 200 stream, turned into `ApiError`. */
import { ApiError } from "../StreamError.ts"
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
      `${message}. ${retryable ? "Retrying the request may help." : "Retrying the same request will not help; fix the request."}`,
    type,
    code,
    retryable,
    body: inner,
    eventIndex,
  })
}
