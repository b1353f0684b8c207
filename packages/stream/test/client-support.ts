// Helpers of the client suites: a fake server as a `fetch` function, on every runtime (no socket).
import type * as HttpClient from "effect/http/HttpClient"
import type * as Layer from "effect/Layer"
import { FriendliClient } from "../src/index.ts"

/** What the fake server saw of one request. */
export interface Seen {
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: Record<string, unknown>
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
    seen.push({ url: request.url, headers, body: JSON.parse(await request.text()) })
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!
    return answer(request)
  }
  const layer: Layer.Layer<HttpClient.HttpClient> = FriendliClient.fetchHttpClient(fetch as typeof globalThis.fetch)
  return { seen, fetch, layer }
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
