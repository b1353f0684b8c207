/**
 * Cross-origin requests (CORS) as one Web-standard layer around the service's handler: the origins allowed
 * (`CORS_ORIGINS`: `*`, or a comma-separated list), the preflight answered, `Location` and `Retry-After` exposed
 * to the page, `Last-Event-ID` allowed in.
 */

import { jsonError } from "./handler.ts"

const ALLOW_METHODS = "GET, POST, DELETE, OPTIONS"
const ALLOW_HEADERS = "content-type, authorization, last-event-id"
const EXPOSE_HEADERS = "Location, Retry-After"

/**
 * The origins a `CORS_ORIGINS` value allows: `"*"` (any), or the list's origins; `undefined` for an unset or empty
 * value (no CORS headers: same-origin pages only). An entry that is not an origin (`scheme://host[:port]`) throws.
 *
 * @since 0.3.0
 */
export const parseCorsOrigins = (value: string | undefined): "*" | ReadonlyArray<string> | undefined => {
  const text = value?.trim()
  if (text === undefined || text === "") return undefined
  if (text === "*") return "*"
  return text.split(",").map((entry) => {
    const origin = entry.trim().replace(/\/+$/, "")
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {
      parsed = undefined
    }
    if (parsed === undefined || parsed.origin !== origin) {
      throw new Error(`CORS_ORIGINS: ${JSON.stringify(entry)} is not an origin (e.g. https://app.example.com), or *.`)
    }
    return origin
  })
}

/**
 * `handler` answering cross-origin requests from `origins` (`"*"` or a list; `undefined`: `handler` as it is): the
 * preflight (`OPTIONS` with `Access-Control-Request-Method`) is a `204` with the methods (`GET, POST, DELETE,
 * OPTIONS`) and headers (`content-type, authorization, last-event-id`) allowed, a preflight from another origin a
 * `403`; every answer to an allowed origin carries `Access-Control-Allow-Origin` and exposes `Location` and
 * `Retry-After`, with `Vary: Origin` for a list.
 *
 * @since 0.3.0
 */
export const withCors = (
  handler: (request: Request) => Promise<Response>,
  origins: "*" | ReadonlyArray<string> | undefined,
): ((request: Request) => Promise<Response>) => {
  if (origins === undefined) return handler
  const allowed = (origin: string | null) => origin !== null && (origins === "*" || origins.includes(origin))
  const corsHeaders = (origin: string): Record<string, string> =>
    origins === "*" ? { "access-control-allow-origin": "*" } : { "access-control-allow-origin": origin, vary: "Origin" }
  return async (request) => {
    const origin = request.headers.get("origin")
    if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      if (!allowed(origin)) {
        return jsonError(403, `Origin ${origin} is not allowed (CORS_ORIGINS).`, "invalid_request_error", {
          ...(origins === "*" ? {} : { vary: "Origin" }),
        })
      }
      return new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders(origin!),
          "access-control-allow-methods": ALLOW_METHODS,
          "access-control-allow-headers": ALLOW_HEADERS,
          "access-control-max-age": "600",
        },
      })
    }
    const response = await handler(request)
    if (!allowed(origin)) {
      if (origins === "*") return response
      const headers = new Headers(response.headers)
      headers.append("vary", "Origin")
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
    }
    const headers = new Headers(response.headers)
    for (const [name, value] of Object.entries(corsHeaders(origin!))) {
      if (name === "vary") headers.append(name, value)
      else headers.set(name, value)
    }
    headers.set("access-control-expose-headers", EXPOSE_HEADERS)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}
