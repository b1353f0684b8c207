/**
 * The Cloudflare Workers sample: `GET /` serves a page where a person types a prompt and watches the tokens
 * appear, with TTFT and tokens/s; `POST /api/stream` streams the completion to it through
 * `proxyCompletionStream` from `@friendli-stream/cloudflare`, with the token kept in the Worker.
 *
 *     pnpm --filter @friendli-stream/worker-app dev
 *
 * Without a `FRIENDLI_TOKEN` secret the Worker streams from the mock Friendli endpoint, run in its own isolate
 * (no network, no configuration); with one, from Friendli (or `FRIENDLI_BASE_URL`).
 *
 * @since 0.1.0
 */
import { type CloudflareClientOptions, type FriendliEnv, proxyCompletionStream } from "@friendli-stream/cloudflare"
import { DEFAULT_MODEL, jsonError, readStreamRequest } from "@friendli-stream/sample-service"
import { LIVE_PACING } from "@friendli-stream/testing"
import { workerMock } from "@friendli-stream/testing/worker"
import { PAGE } from "./page.ts"

/**
 * The Worker's bindings: the proxy's (`FRIENDLI_TOKEN` as a secret, `FRIENDLI_MODEL`, …), and `MOCK_FAULTS`, the
 * pacing of the mock it streams from when there is no token.
 *
 * @since 0.1.0
 */
export interface Env extends FriendliEnv {
  readonly MOCK_FAULTS?: string
}

/** The longest completion the page may ask for. */
const MAX_TOKENS = 1024

/**
 * The client options of the mock: its `fetch` instead of the network. One object for every request: the proxy keeps
 * one client per bindings and options object, so a new object per request would make a new client per request.
 */
const MOCK_CLIENT_OPTIONS: CloudflareClientOptions = {
  fetch: (input, init) => workerMock().fetch(new Request(input, init)),
}

/** `POST /api/stream`: the completion as server-sent events, or a JSON error. */
const stream = async (request: Request, env: Env): Promise<Response> => {
  // The page chooses the prompt and max_tokens only; the model is the Worker's (FRIENDLI_MODEL).
  const input = await readStreamRequest(request, { maxTokens: MAX_TOKENS })
  if (typeof input === "string") return jsonError(400, input)
  const completion = {
    prompt: input.prompt,
    max_tokens: input.max_tokens,
    stream: true,
    stream_options: { include_usage: true },
  }
  const upstream = new Request(request.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(completion),
    signal: request.signal,
  })
  const model = env.FRIENDLI_MODEL ?? DEFAULT_MODEL
  if (env.FRIENDLI_TOKEN) return proxyCompletionStream(upstream, { ...env, FRIENDLI_MODEL: model })
  // No token: the mock endpoint, in this isolate (made by the first request, paced by its MOCK_FAULTS).
  workerMock({ MOCK_FAULTS: env.MOCK_FAULTS ?? LIVE_PACING })
  return proxyCompletionStream(
    upstream,
    { FRIENDLI_TOKEN: "demo-token", FRIENDLI_BASE_URL: "https://mock.invalid/serverless", FRIENDLI_MODEL: model },
    MOCK_CLIENT_OPTIONS,
  )
}

/**
 * The Worker.
 *
 * @since 0.1.0
 */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url)
    if (pathname === "/") {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return jsonError(405, "Use GET /.", undefined, { allow: "GET, HEAD" })
      }
      return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })
    }
    if (pathname === "/api/stream") {
      if (request.method !== "POST") {
        return jsonError(405, "Use POST /api/stream with a JSON body.", undefined, { allow: "POST" })
      }
      return stream(request, env)
    }
    return jsonError(404, `No route ${pathname}: the page is at /, the stream at POST /api/stream.`, "not_found")
  },
} satisfies ExportedHandler<Env>
