/**
 * The Cloudflare Workers sample: `GET /` serves a page where a person types a prompt and watches the tokens
 * appear, with TTFT and tokens/s; `/v1/stream` serves resumable completion streams, each in its own Durable Object
 * (`StreamObject`, from `@friendli-stream/cloudflare/resumable`), which makes the upstream request with the token
 * kept in the Worker, stores every event, and goes on generating when the browser goes away:
 *
 * - `POST /v1/stream` (`{"prompt", "max_tokens"}`) or `GET /v1/stream?prompt=…&max_tokens=…`: a new stream, its
 *   events each with an `id:`, and `Location: /v1/stream/<id>`;
 * - `GET /v1/stream/<id>` with `Last-Event-ID` (or `?lastEventId=`), or `GET /v1/stream` with `Last-Event-ID` (an
 *   `EventSource` reconnecting): the events after that one, then the live ones, then the end;
 * - `DELETE /v1/stream/<id>`: cancels it (the upstream request is aborted; readers get a `cancelled` end).
 *
 *     pnpm --filter @friendli-stream/worker-app dev
 *
 * Without a `FRIENDLI_TOKEN` secret the streams come from the mock Friendli endpoint, run in the isolate (no
 * network, no configuration); with one, from Friendli (or `FRIENDLI_BASE_URL`).
 *
 * @since 0.1.0
 */
import { resumableRoutes } from "@friendli-stream/cloudflare/resumable"
import {
  DEFAULT_MODEL,
  jsonError,
  parseCorsOrigins,
  readBounded,
  readStreamRequest,
  withCors,
} from "@friendli-stream/sample-service"
import { dropAfter } from "./dropAfter.ts"
import { PAGE } from "./page.ts"
import type { Env } from "./streamObject.ts"

export type { Env } from "./streamObject.ts"
export { StreamObject } from "./streamObject.ts"

/** The longest completion the page may ask for. */
const MAX_TOKENS = 1024

/** The start of a stream: the prompt and max_tokens from the request; the model is the Worker's (FRIENDLI_MODEL). */
const start = (env: Env) => async (request: Request) => {
  const input = await readStreamRequest(request, { maxTokens: MAX_TOKENS })
  if (typeof input === "string") return jsonError(400, input)
  return {
    api: "completions" as const,
    request: {
      model: env.FRIENDLI_MODEL ?? DEFAULT_MODEL,
      prompt: input.prompt,
      max_tokens: input.max_tokens,
      stream_options: { include_usage: true },
    },
  }
}

/** A whole number of an environment variable (unset or empty: `undefined`). */
const whole = (env: Env, name: "MAX_BODY_BYTES" | "BODY_TIMEOUT_MS"): number | undefined => {
  const text = env[name]
  if (text === undefined || text === "") return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name}=${JSON.stringify(text)} is not a whole number from 1 on.`)
  return value
}

/** The Worker's routes, its request body read within MAX_BODY_BYTES and BODY_TIMEOUT_MS first (413, 408). */
const route = async (request: Request, env: Env): Promise<Response> => {
  const bounded = await readBounded(request, {
    maxBodyBytes: whole(env, "MAX_BODY_BYTES"),
    bodyTimeoutMs: whole(env, "BODY_TIMEOUT_MS"),
  })
  if (bounded instanceof Response) return bounded
  request = bounded
  const url = new URL(request.url)
  if (url.pathname === "/") {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return jsonError(405, "Use GET /.", undefined, { allow: "GET, HEAD" })
    }
    return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
  }
  const routed = resumableRoutes(request, env.STREAMS, { start: start(env) })
  if (routed !== undefined) {
    const drop = env.TEST_HOOKS === "true" ? Number(url.searchParams.get("dropAfter") ?? Number.NaN) : Number.NaN
    return Number.isInteger(drop) && drop > 0 ? dropAfter(await routed, drop) : routed
  }
  return jsonError(
    404,
    `No route ${url.pathname}: the page is at /, the streams at POST /v1/stream and /v1/stream/<id>.`,
    "not_found",
  )
}

/**
 * The Worker: its routes, within the body bounds, answering cross-origin requests from `CORS_ORIGINS`.
 *
 * @since 0.1.0
 */
export default {
  fetch: (request: Request, env: Env): Promise<Response> =>
    withCors((r) => route(r, env), parseCorsOrigins(env.CORS_ORIGINS))(request),
} satisfies ExportedHandler<Env>
