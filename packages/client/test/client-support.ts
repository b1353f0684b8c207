// Helpers of the client suites: a fake server as a `fetch` function, on every runtime (no socket).
import type * as HttpClient from "effect/http/HttpClient"
import type * as Layer from "effect/Layer"
import { type ClientOptions, FriendliClient, makePromiseClient } from "../src/index.ts"

/** What the fake server saw of one request. */
export interface Seen {
  readonly method: string
  readonly url: string
  /** Header names in lower case. */
  readonly headers: Record<string, string>
  /** The JSON body; `undefined` for an empty or a multipart body. */
  readonly json: Record<string, unknown> | undefined
  /** The multipart form of an upload. */
  readonly form: FormData | undefined
}

/** One answer of the fake server: a function of the request that makes a fresh `Response`. */
export type Answer = (request: Request) => Response | Promise<Response>

/** A fake server: answers in order (the last one repeats), and records each request. */
export const fakeServer = (...answers: ReadonlyArray<Answer>) => {
  const seen: Array<Seen> = []
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const headers: Record<string, string> = {}
    request.headers.forEach((v, k) => {
      headers[k] = v
    })
    const multipart = headers["content-type"]?.startsWith("multipart/form-data") === true
    const text = multipart ? "" : await request.text()
    seen.push({
      method: request.method,
      url: request.url,
      headers,
      json: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
      form: multipart ? await request.formData() : undefined,
    })
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!
    return answer(request)
  }
  const layer: Layer.Layer<HttpClient.HttpClient> = FriendliClient.fetchHttpClient(fetch as typeof globalThis.fetch)
  return { seen, fetch, layer }
}

/** A promise client (token, {@link BASE}, 1 ms retry delays, then `options`) on a {@link fakeServer} of `answers`. */
export const fakeServerClient = (answers: ReadonlyArray<Answer>, options: ClientOptions = {}) => {
  const server = fakeServer(...answers)
  const client = makePromiseClient(server.layer, {
    token: "flp_test",
    baseURL: BASE,
    initialRetryDelayMs: 1,
    maxRetryDelayMs: 1,
    ...options,
  })
  return { client, seen: server.seen }
}

export const sse =
  (values: ReadonlyArray<unknown>, done = true): Answer =>
  () =>
    new Response(values.map((v) => `data: ${JSON.stringify(v)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : ""), {
      status: 200,
      headers: { "content-type": "text/event-stream" },
    })

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

export const BASE = "http://fake.test"

export const completionChunkWire = (text: string, finish: string | null = null, usage?: unknown) => ({
  id: "cmpl-1",
  object: "text_completion",
  model: "m",
  created: 1_700_000_000,
  choices: finish === "none" ? [] : [{ index: 0, text, finish_reason: finish }],
  ...(usage === undefined ? {} : { usage }),
})

/** A strict Friendli chat chunk as it is on the wire. */
export const chatChunkWire = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  model: "meta-llama-3.1-8b-instruct",
  created: 1_700_000_000,
  choices: [{ index: 0, delta, finish_reason: finish }],
})
