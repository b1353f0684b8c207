// Shared helpers of the portable tests: requests to a mock, and its output read with the harness's SSE parser.
import {
  chatRequest,
  completionRequest,
  parseSse,
  readBody,
  type SseEvent,
} from "@friendli-stream/test-harness/fixtures"
import { createMockFriendli, type MockFriendli, type MockFriendliOptions } from "../src/index.ts"

export { parseSse, readBody, type SseEvent }

export const BASE = "http://mock.test"
export const TOKEN = "test-token"

export interface PostOptions {
  readonly headers?: Record<string, string>
  readonly token?: string | null
  readonly query?: string
  readonly signal?: AbortSignal
  readonly method?: string
}

/** A request to the mock (through `fetch` on a server, or directly to the handler). */
export const request = (path: string, body: unknown, options: PostOptions = {}): Request => {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers }
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`
  return new Request(`${BASE}${path}${options.query ?? ""}`, {
    method: options.method ?? "POST",
    headers,
    ...(options.method === "GET" ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
}

export const post = (mock: MockFriendli, path: string, body: unknown, options: PostOptions = {}): Promise<Response> =>
  mock.fetch(request(path, body, options))

export const newMock = (options: MockFriendliOptions = {}): MockFriendli => createMockFriendli(options)

/** The JSON payloads of a stream (without `[DONE]`), and whether it ended with `[DONE]`. */
export const readStream = async (
  response: Response,
): Promise<{ chunks: Array<Record<string, unknown>>; events: Array<SseEvent>; done: boolean; text: string }> => {
  const { text } = await readBody(response)
  const { events } = parseSse(text)
  const done = events.at(-1)?.data === "[DONE]"
  const chunks = events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data) as Record<string, unknown>)
  return { chunks, events, done, text }
}

export interface Choice {
  index: number
  text?: string
  token?: number
  delta?: { role?: string; content?: string; reasoning_content?: string; tool_calls?: Array<ToolCallDelta> }
  finish_reason: string | null
  logprobs: unknown
}
export interface ToolCallDelta {
  index: number
  id?: string | null
  type?: string
  function: { name?: string | null; arguments: string }
}

export const choicesOf = (chunk: Record<string, unknown>): Array<Choice> => chunk.choices as Array<Choice>

/** Concatenates the completion text of each choice from completions chunks. */
export const accumulateText = (chunks: ReadonlyArray<Record<string, unknown>>): Map<number, string> => {
  const out = new Map<number, string>()
  for (const chunk of chunks) {
    for (const c of choicesOf(chunk)) out.set(c.index, (out.get(c.index) ?? "") + (c.text ?? c.delta?.content ?? ""))
  }
  return out
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * A streamed completions request (the shared builder's, with `stream: true` and no `max_tokens`, so that the mock
 * answers at its own length); `extra` adds or overrides fields.
 */
export const completionsBody = (extra: Record<string, unknown> = {}) =>
  completionRequest("Say this is a test", { stream: true, max_tokens: undefined, ...extra })

/** A streamed chat request, as `completionsBody` is for completions; `extra` adds or overrides fields. */
export const chatBody = (extra: Record<string, unknown> = {}) =>
  chatRequest("Hello there", { stream: true, max_tokens: undefined, ...extra })
