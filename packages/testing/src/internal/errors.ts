/**
 * Error responses, with the bodies Friendli sends.
 *
 * - `{"message": "..."}` for authentication failures (401) and unknown models (404),
 * - `{"detail": [{loc, msg, type, input}]}` for request validation (422) and `{"detail": "..."}` for 404/405 routes,
 * - `{"error": {"message", "type", "code"}}` for rate limits and server failures.
 */

/** One validation problem: where in the body, and what is wrong. */
export interface ValidationIssue {
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly type: string
  readonly input?: unknown
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  })

/** 401: missing or wrong bearer token. */
export const unauthorized = (reason: string): Response =>
  json(401, { message: `Unauthorized: ${reason}` }, { "www-authenticate": 'Bearer realm="friendli"' })

/** 422: the request body failed validation. */
export const unprocessable = (issues: ReadonlyArray<ValidationIssue>): Response =>
  json(422, {
    detail: issues.map((i) => ({
      loc: ["body", ...i.loc],
      msg: i.msg,
      type: i.type,
      ...(i.input === undefined ? {} : { input: i.input }),
    })),
  })

/** 404 for a path the API does not have. */
export const notFound = (): Response => json(404, { detail: "Not Found" })

/** 404 for a model (or dedicated endpoint) the mock was told not to know. */
export const unknownModel = (model: string): Response =>
  json(404, { message: `The model '${model}' does not exist or you do not have access to it.` })

/** 405 for a known path with the wrong method. */
export const methodNotAllowed = (allow: "GET" | "POST" = "POST"): Response =>
  json(405, { detail: "Method Not Allowed" }, { allow })

/** An `{"error": {...}}` body with any status. */
export const apiError = (
  status: number,
  message: string,
  type: string,
  code: string,
  headers: Record<string, string> = {},
): Response => json(status, { error: { message, type, code } }, headers)

/** 400 for a malformed fault switch (a mistake in the test, not in the client under test). */
export const badFault = (message: string): Response => apiError(400, message, "mock_fault_error", "invalid_fault")

const STATUS_CODES: Record<number, string> = {
  500: "internal_server_error",
  501: "not_implemented",
  502: "bad_gateway",
  503: "service_unavailable",
  504: "gateway_timeout",
}

/** The body of an injected `status:CODE` failure. */
export const injectedStatus = (status: number): Response =>
  apiError(
    status,
    `Injected failure: the mock answered ${status} as asked by the 'status' fault.`,
    status >= 500 ? "server_error" : "invalid_request_error",
    STATUS_CODES[status] ?? `http_${status}`,
  )

/** The body of an injected 429. */
export const rateLimited = (retryAfter: string): Response =>
  apiError(
    429,
    "Rate limit exceeded: too many requests. Retry after the time given in the Retry-After header.",
    "rate_limit_error",
    "rate_limit_exceeded",
    { "retry-after": retryAfter },
  )
