/**
 * The service's Web handler (`Request` in, `Response` out, nothing else): the routes, the request parsing, the usage
 * text and the JSON errors; the streams themselves are the resumable handler's (streams.ts).
 */

/**
 * The model of requests that name none, unless the app is given another.
 *
 * @since 0.1.0
 */
export const DEFAULT_MODEL = "meta-llama-3.1-8b-instruct"

/**
 * A JSON error, `{ "error": { "message", "type", "code": null } }`, with `status` (and `headers`).
 *
 * @since 0.1.0
 */
export const jsonError = (
  status: number,
  message: string,
  type = "invalid_request_error",
  headers: Readonly<Record<string, string>> = {},
): Response =>
  new Response(`${JSON.stringify({ error: { message, type, code: null } })}\n`, {
    status,
    headers: { "content-type": "application/json", ...headers },
  })

/**
 * A completion request as a person sends it: the body of `POST /v1/stream`, or the query of `GET /v1/stream`.
 *
 * @since 0.1.0
 */
export interface StreamRequest {
  readonly prompt: string
  readonly max_tokens: number
  readonly model?: string
}

/**
 * Reads and checks a request's `prompt`, `max_tokens` (default 64, at most `maxTokens`, default 4096) and `model`,
 * from the JSON body of a `POST` or the query of a `GET`; a string is what was wrong with it.
 *
 * @since 0.1.0
 */
export const readStreamRequest = async (
  request: Request,
  { maxTokens = 4096 }: { readonly maxTokens?: number } = {},
): Promise<StreamRequest | string> => {
  let input: Record<string, unknown>
  if (request.method === "GET") {
    const query = new URL(request.url).searchParams
    input = Object.fromEntries(query)
    if (query.has("max_tokens")) input.max_tokens = Number(query.get("max_tokens"))
  } else {
    let body: unknown
    try {
      body = await request.json()
    } catch {
      return 'The body is not JSON: send {"prompt": "..."}.'
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return 'The body must be a JSON object: {"prompt": "..."}.'
    }
    input = body as Record<string, unknown>
  }
  const { prompt, max_tokens = 64, model } = input
  if (typeof prompt !== "string" || prompt.trim() === "") return "`prompt` must be a non-empty string."
  if (typeof max_tokens !== "number" || !Number.isInteger(max_tokens) || max_tokens < 1 || max_tokens > maxTokens) {
    return `\`max_tokens\` must be a whole number from 1 to ${maxTokens}.`
  }
  if (model !== undefined && (typeof model !== "string" || model === "")) return "`model` must be a non-empty string."
  return { prompt, max_tokens, ...(model === undefined ? {} : { model }) }
}

const usage = (
  runtime: string,
  origin: string,
): string => `friendli-stream on ${runtime}: streams a completion as server-sent events that a dropped reader resumes.

  POST /v1/stream  {"prompt": "Once upon a time", "max_tokens": 32, "model": "..."}
  GET  /v1/stream?prompt=Once+upon+a+time&max_tokens=32
       start a stream: every event has an id:, the answer a Location: /v1/stream/<id>
  GET  /v1/stream/<id>   with Last-Event-ID: the events after it, then the live ones, then the end
                         without it: the whole stream from its first event (204 when nothing follows)
  DELETE /v1/stream/<id> cancel it: its readers get a cancelled end

  curl -N ${origin}/v1/stream -d '{"prompt":"Once upon a time"}'
  curl -N -H 'Last-Event-ID: <id of the last event you got>' ${origin}/v1/stream/<id>
  curl -X DELETE ${origin}/v1/stream/<id>

The environment (every variable optional):
  PORT, HOST                      where it listens
  FRIENDLI_TOKEN, FRIENDLI_BASE_URL, FRIENDLI_MODEL
                                  the model server (without a token: the embedded mock, paced by MOCK_FAULTS)
  REDIS_URL, REDIS_MAX_CONNECTIONS, RESUMABLE_LEASE_MS, RESUMABLE_RETENTION_MS
                                  where the streams are kept, and for how long
  KEEP_ALIVE_MS=15000             a ": keep-alive" comment after this long with nothing sent
  MAX_BODY_BYTES=1048576          a larger request body is a 413
  BODY_TIMEOUT_MS=10000           a request body slower than this is a 408
  MAX_STREAMS                     more streams open at once are a 503 with Retry-After (default: no bound)
  CORS_ORIGINS                    * or a comma-separated list of origins allowed cross-origin (default: none)
  DRAIN_GRACE_MS=30000            on SIGTERM: no new streams (503), those in flight may finish within this
`

/**
 * The service's request handler: `GET /` (usage), and the resumable streams under `/v1/stream` (`streams`, from
 * `makeStreams`): `POST /v1/stream` and `GET /v1/stream?prompt=` start one (`data: {chunk}` … `data: [DONE]`, each
 * event with its `id:`, the answer with its `Location`), `GET /v1/stream/<id>` resumes it with `Last-Event-ID` (or
 * replays it), `DELETE /v1/stream/<id>` cancels it. A bad request is a 400 JSON error; an unknown path a 404, a wrong
 * method a 405, as JSON.
 *
 * @since 0.1.0
 */
export const makeHandler =
  (streams: { readonly fetch: (request: Request) => Promise<Response> }, { runtime }: { readonly runtime: string }) =>
  async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    if (url.pathname === "/") {
      if (request.method !== "GET") return jsonError(405, "Use GET /.", undefined, { allow: "GET" })
      return new Response(usage(runtime, url.origin), { headers: { "content-type": "text/plain; charset=utf-8" } })
    }
    if (url.pathname === "/v1/stream") {
      if (request.method !== "POST" && request.method !== "GET") {
        return jsonError(405, "Use POST (or GET) /v1/stream.", undefined, { allow: "GET, POST" })
      }
      return await streams.fetch(request)
    }
    if (url.pathname.startsWith("/v1/stream/")) return await streams.fetch(request)
    return jsonError(404, `No route ${url.pathname}: use POST /v1/stream.`, "not_found")
  }
