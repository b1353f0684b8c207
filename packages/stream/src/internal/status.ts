/**
 * The one table of HTTP statuses: for each status, the class of its client error, whether a retry may help (for a
 * non-2xx answer and for an in-stream error's code alike), what `toResponse` answers for it, and what to do about it.
 */

/** The tag of each status error class. */
export type StatusTag =
  | "BadRequestError"
  | "AuthenticationError"
  | "PermissionDeniedError"
  | "NotFoundError"
  | "UnprocessableEntityError"
  | "RateLimitError"
  | "ServerError"
  | "UnexpectedStatusError"

/** What the package does with one status. */
export interface StatusRule {
  readonly tag: StatusTag
  /** Sending the same request again could succeed. */
  readonly retryable: boolean
  /** The request's own fault: `toResponse` passes the status on as it is (else 502, the upstream's fault). */
  readonly passOn: boolean
  /** What to do, in one sentence. */
  readonly advice: string
}

const rule = (tag: StatusTag, retryable: boolean, passOn: boolean, advice: string): StatusRule => ({
  tag,
  retryable,
  passOn,
  advice,
})

const TABLE: ReadonlyMap<number, StatusRule> = new Map([
  [400, rule("BadRequestError", false, true, "Fix the request.")],
  [401, rule("AuthenticationError", false, false, "Check the token (the token option or FRIENDLI_TOKEN).")],
  [
    403,
    rule(
      "PermissionDeniedError",
      false,
      false,
      "The token may not use this model, endpoint or team; check the team (the team option or FRIENDLI_TEAM).",
    ),
  ],
  [
    404,
    rule("NotFoundError", false, true, "Check the model (or dedicated endpoint id), the deployment kind and baseURL."),
  ],
  [408, rule("UnexpectedStatusError", true, false, "The server timed out; the request is retried.")],
  [409, rule("UnexpectedStatusError", true, false, "The request conflicted with another; it is retried.")],
  [422, rule("UnprocessableEntityError", false, true, "Fix the fields listed.")],
  [425, rule("UnexpectedStatusError", true, false, "The server asked to try again later; the request is retried.")],
  [429, rule("RateLimitError", true, true, "Send fewer requests, or raise maxRetries.")],
])

const SERVER = rule("ServerError", true, false, "The server failed; try again later.")
const OTHER = rule("UnexpectedStatusError", false, false, "See the body for details.")

/** The rule of a status that is not 2xx. */
export const statusRule = (status: number): StatusRule => TABLE.get(status) ?? (status >= 500 ? SERVER : OTHER)
