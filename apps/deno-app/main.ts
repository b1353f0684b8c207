/**
 * The Deno sample: a small HTTP service on `Deno.serve` that takes a prompt and streams the completion back as
 * server-sent events, through `@friendli-stream/deno`.
 *
 *     pnpm --filter @friendli-stream/deno-app start
 *     curl -N localhost:8000/v1/stream -d '{"prompt":"Once upon a time"}'
 *
 * Without `FRIENDLI_TOKEN` it serves the mock Friendli endpoint in-process and streams from it; with a token it
 * streams from Friendli (or from `FRIENDLI_BASE_URL`, any OpenAI-compatible server).
 *
 * @since 0.1.0
 */
import { createClient, type PromiseClient } from "@friendli-stream/deno"
import { createMockFriendli, type MockFriendli } from "@friendli-stream/testing"
import { serveDeno } from "@friendli-stream/testing/deno"

/**
 * Where the app listens and where it streams from.
 *
 * @since 0.1.0
 */
export interface AppOptions {
  /** Default 8000; 0 picks a free port. */
  readonly port?: number | undefined
  /** Default `127.0.0.1`. */
  readonly hostname?: string | undefined
  /** The Friendli token. Without one the app streams from a mock endpoint it serves itself. */
  readonly token?: string | undefined
  /** Any OpenAI-compatible server, without `/v1`; default Friendli's serverless endpoint. */
  readonly baseURL?: string | undefined
  /** The model of requests that name none; default `meta-llama-3.1-8b-instruct`. */
  readonly model?: string | undefined
  /** The embedded mock's pacing (a fault spec); default `delay-first:150,delay:25`, like a live server. */
  readonly mockFaults?: string | undefined
}

/**
 * The running app.
 *
 * @since 0.1.0
 */
export interface RunningApp {
  /** e.g. `http://127.0.0.1:8000` (no trailing slash). */
  readonly url: string
  /** The embedded mock endpoint, when the app runs without a token. */
  readonly mock: MockFriendli | undefined
  /** The mock's own URL, when there is one. */
  readonly mockUrl: string | undefined
  /** Stops listening, ends the streams in flight and closes the client and the mock. */
  close(): Promise<void>
}

/** The body of `POST /v1/stream`, or the query of `GET /v1/stream`. */
interface StreamRequest {
  readonly prompt: string
  readonly max_tokens: number
  readonly model?: string
}

const DEFAULT_MODEL = "meta-llama-3.1-8b-instruct"

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(`${JSON.stringify(body)}\n`, {
    status,
    headers: { "content-type": "application/json", ...headers },
  })

const badRequest = (message: string): Response => json(400, { error: { message, type: "invalid_request_error" } })

const USAGE = `friendli-stream on Deno: streams a completion as server-sent events.

  POST /v1/stream  {"prompt": "Once upon a time", "max_tokens": 32, "model": "..."}
  GET  /v1/stream?prompt=Once+upon+a+time&max_tokens=32

  curl -N HOST/v1/stream -d '{"prompt":"Once upon a time"}'
`

/** Reads and checks the request's prompt, `max_tokens` and `model`; a string is what was wrong with it. */
const readStreamRequest = async (request: Request): Promise<StreamRequest | string> => {
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
  if (typeof max_tokens !== "number" || !Number.isInteger(max_tokens) || max_tokens < 1 || max_tokens > 4096) {
    return "`max_tokens` must be a whole number from 1 to 4096."
  }
  if (model !== undefined && (typeof model !== "string" || model === "")) return "`model` must be a non-empty string."
  return { prompt, max_tokens, ...(model === undefined ? {} : { model }) }
}

/**
 * The app's request handler: `GET /` (usage), `POST /v1/stream` and `GET /v1/stream?prompt=` (the completion as
 * server-sent events, `data: {chunk}` … `data: [DONE]`). A bad request is a 400 JSON error; a failure before the
 * first chunk a JSON error too, one after it an `event: error` in the stream. A client that goes away aborts the
 * request to the model server.
 *
 * @since 0.1.0
 */
export const makeHandler =
  (client: PromiseClient, defaultModel: string = DEFAULT_MODEL) =>
  async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url)
    if (pathname === "/") {
      if (request.method !== "GET") return json(405, { error: { message: "Use GET /." } }, { allow: "GET" })
      return new Response(USAGE.replaceAll("HOST", new URL(request.url).origin), {
        headers: { "content-type": "text/plain; charset=utf-8" },
      })
    }
    if (pathname !== "/v1/stream") {
      return json(404, { error: { message: `No route ${pathname}: use POST /v1/stream.`, type: "not_found" } })
    }
    if (request.method !== "POST" && request.method !== "GET") {
      return json(405, { error: { message: "Use POST (or GET) /v1/stream." } }, { allow: "GET, POST" })
    }
    const input = await readStreamRequest(request)
    if (typeof input === "string") return badRequest(input)
    const stream = client.completions.stream(
      {
        model: input.model ?? defaultModel,
        prompt: input.prompt,
        max_tokens: input.max_tokens,
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: request.signal },
    )
    return await respondWithStream(stream.toReadableStream() as ReadableStream<Uint8Array>)
  }

/**
 * The stream as the response: `text/event-stream`, passed on as it arrives. A failure before the first chunk is
 * the stream's first event (`event: error`): it becomes a JSON error instead, with the upstream status when that
 * is the request's fault (e.g. 422), else 502. Cancelling the response body (the client went away) cancels the
 * stream, which aborts the upstream request.
 */
const respondWithStream = async (sse: ReadableStream<Uint8Array>): Promise<Response> => {
  const reader = sse.getReader()
  const first = await reader.read()
  const head = first.done ? "" : new TextDecoder().decode(first.value)
  if (head.startsWith("event: error\n")) {
    const body = JSON.parse(head.slice(head.indexOf("data: ") + 6)) as { error: { code?: unknown } }
    const code = body.error.code
    const status = typeof code === "number" && code >= 400 && code < 500 && code !== 401 && code !== 403 ? code : 502
    return json(status, body)
  }
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => (first.done ? controller.close() : controller.enqueue(first.value)),
    pull: async (controller) => {
      const next = await reader.read()
      if (next.done) controller.close()
      else controller.enqueue(next.value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } })
}

/**
 * Starts the app on `Deno.serve`. Without a token it first serves the mock Friendli endpoint on a free port of
 * 127.0.0.1 and points the client at it.
 *
 * @example
 * const app = await startApp({ port: 0 })
 * const res = await fetch(`${app.url}/v1/stream`, { method: "POST", body: JSON.stringify({ prompt: "Hi" }) })
 * await app.close()
 *
 * @since 0.1.0
 */
export const startApp = async (options: AppOptions = {}): Promise<RunningApp> => {
  const mockFriendli =
    options.token === undefined
      ? createMockFriendli({ faults: options.mockFaults ?? "delay-first:150,delay:25" })
      : undefined
  const mock = mockFriendli === undefined ? undefined : await serveDeno(mockFriendli)
  const client = createClient({
    token: options.token ?? "demo-token",
    ...(mock !== undefined
      ? { baseURL: `${mock.url}/serverless` }
      : options.baseURL === undefined
        ? {}
        : { baseURL: options.baseURL }),
  })
  const hostname = options.hostname ?? "127.0.0.1"
  const server = Deno.serve(
    { port: options.port ?? 8000, hostname, onListen: () => {} },
    makeHandler(client, options.model ?? DEFAULT_MODEL),
  )
  return {
    url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${server.addr.port}`,
    mock: mockFriendli,
    mockUrl: mock?.url,
    close: async () => {
      // Closing the client ends every stream in flight, so that the server can shut down.
      await client.close()
      await mock?.close()
      await server.shutdown()
    },
  }
}

if (import.meta.main) {
  const env = (name: string): string | undefined => Deno.env.get(name) || undefined
  const app = await startApp({
    port: Number(env("PORT") ?? 8000),
    hostname: env("HOST"),
    token: env("FRIENDLI_TOKEN"),
    baseURL: env("FRIENDLI_BASE_URL"),
    model: env("FRIENDLI_MODEL"),
  })
  if (app.mockUrl !== undefined) console.log(`No FRIENDLI_TOKEN: streaming from the embedded mock at ${app.mockUrl}`)
  console.log(`friendli deno-app listening on ${app.url}`)
  console.log(`try: curl -N ${app.url}/v1/stream -d '{"prompt":"Once upon a time"}'`)
  const stop = () => {
    app.close().then(() => Deno.exit(0))
  }
  Deno.addSignalListener("SIGINT", stop)
  Deno.addSignalListener("SIGTERM", stop)
}
