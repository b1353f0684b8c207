/** HTTP failures -> the typed client errors: status classes with the parsed body, connection errors. */
import * as Core from "@friendli-stream/core"
import { type StatusTag, sentence, statusRule } from "@friendli-stream/stream/internal"
import {
  type AnyStatusError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  type ConnectionErrorReason,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  type StatusErrorFields,
  UnexpectedStatusError,
  UnprocessableEntityError,
} from "../ClientError.ts"

/** The longest body text an error keeps. */
export const MAX_BODY_TEXT = 4096

/** Cuts a body to a sane length. */
export const cutBody = (text: string): string =>
  text.length > MAX_BODY_TEXT ? `${text.slice(0, MAX_BODY_TEXT)}… (${text.length} characters)` : text

/** The body as one of the Friendli error shapes, when it is one. */
export const parseErrorBody = (text: string): Core.ErrorBody | undefined => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  return Core.isErrorBody(value) ? value : undefined
}

/** What the body says, in one line. */
export const describeBody = (body: Core.ErrorBody | undefined, text: string): string => {
  if (body === undefined) return text.trim() === "" ? "(empty body)" : cutBody(text.trim()).slice(0, 300)
  if ("error" in body) {
    const e = body.error
    const extra = [e.type && `type ${e.type}`, e.code != null && `code ${e.code}`].filter(Boolean).join(", ")
    return extra === "" ? e.message : `${e.message} (${extra})`
  }
  if ("message" in body) return body.message
  const detail = body.detail
  if (typeof detail === "string") return detail
  return detail.map((issue) => `${(issue.loc ?? []).join(".") || "body"}: ${issue.msg}`).join("; ")
}

const CLASSES: Record<StatusTag, new (args: StatusErrorFields & { readonly message: string }) => AnyStatusError> = {
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  UnprocessableEntityError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
}

/** The typed error of a non-2xx response. */
export const statusError = (args: {
  readonly status: number
  readonly text: string
  readonly requestId: string | undefined
  readonly retryAfterMs: number | undefined
  readonly url: string
  readonly attempts: number
  /** The request's method (default `POST`). */
  readonly method?: "GET" | "POST" | undefined
}): AnyStatusError => {
  const body = parseErrorBody(args.text)
  const rule = statusRule(args.status)
  const Class = CLASSES[rule.tag]
  const tries = args.attempts > 1 ? ` after ${args.attempts} attempts` : ""
  const id = args.requestId === undefined ? "" : ` [request id ${args.requestId}]`
  return new Class({
    message: `${args.method ?? "POST"} ${args.url} answered ${args.status}${tries}: ${sentence(describeBody(body, args.text))} ${rule.advice}${id}`,
    status: args.status,
    body,
    text: cutBody(args.text),
    requestId: args.requestId,
    retryAfterMs: args.retryAfterMs,
  })
}

/**
 * What to do when a connection breaks mid-response: a stream that broke after its first chunk is not retried (the
 * chunks already delivered would be sent again), so it is the caller's to retry or resume.
 */
export const RECEIVE_ADVICE =
  "The chunks before the break were delivered; to get the rest, send the request again (a break before the first " +
  "chunk is retried up to maxRetries times) or, for a resumable stream, resume from the last event id."

/** The typed error of a transport failure. */
export const connectionError = (reason: ConnectionErrorReason, url: string, cause: unknown): ConnectionError => {
  const detail = describeCause(cause)
  return new ConnectionError({
    reason,
    url,
    cause,
    message:
      reason === "Send"
        ? `Could not send POST ${url}: ${sentence(detail)} Check baseURL and the network; the request is retried up to maxRetries times.`
        : `The connection broke while reading the response of POST ${url}: ${sentence(detail)} ${RECEIVE_ADVICE}`,
  })
}

const describeCause = (cause: unknown): string => {
  const parts: Array<string> = []
  let c: unknown = cause
  for (let i = 0; i < 4 && c !== undefined && c !== null; i++) {
    if (c instanceof Error) {
      const code = (c as { code?: unknown }).code
      parts.push(typeof code === "string" ? `${c.message} (${code})` : c.message)
      c = (c as { cause?: unknown }).cause
    } else {
      parts.push(String(c))
      break
    }
  }
  return parts.filter((p) => p !== "").join(": ") || "unknown cause"
}
