// Shared helpers of the portable tests: requests to a mock, and an independent SSE reader to check its output.
import { createMockFriendli, type MockFriendli, type MockFriendliOptions } from "../src/index.ts"

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

/** Every piece the body was read in, and the whole text. */
export const readPieces = async (response: Response): Promise<{ pieces: Array<Uint8Array>; text: string }> => {
  const reader = response.body!.getReader()
  const pieces: Array<Uint8Array> = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    pieces.push(value)
  }
  const all = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pieces) {
    all.set(p, at)
    at += p.length
  }
  return { pieces, text: new TextDecoder().decode(all) }
}

export interface SseEvent {
  readonly event: string | undefined
  readonly data: string
}

/** A plain SSE parser (any of CRLF, LF, CR; comments skipped), independent of the code under test. */
export const parseSse = (text: string): { events: Array<SseEvent>; comments: number } => {
  const lines = text.split(/\r\n|\r|\n/)
  const events: Array<SseEvent> = []
  let comments = 0
  let event: string | undefined
  let data: Array<string> = []
  for (const line of lines) {
    if (line === "") {
      if (data.length > 0) events.push({ event, data: data.join("\n") })
      event = undefined
      data = []
    } else if (line.startsWith(":")) comments++
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""))
    else if (line.startsWith("event:")) event = line.slice(6).replace(/^ /, "")
  }
  return { events, comments }
}

/** The JSON payloads of a stream (without `[DONE]`), and whether it ended with `[DONE]`. */
export const readStream = async (
  response: Response,
): Promise<{ chunks: Array<Record<string, unknown>>; events: Array<SseEvent>; done: boolean; text: string }> => {
  const { text } = await readPieces(response)
  const { events } = parseSse(text)
  const done = events.at(-1)?.data === "[DONE]"
  const chunks = events.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data) as Record<string, unknown>)
  return { chunks, events, done, text }
}

export interface Choice {
  index: number
  text?: string
  token?: number
  delta?: { role?: string; content?: string; tool_calls?: Array<ToolCallDelta> }
  finish_reason: string | null
  logprobs: unknown
}
export interface ToolCallDelta {
  index: number
  id?: string
  type?: string
  function: { name?: string; arguments: string }
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

export const completionsBody = (extra: Record<string, unknown> = {}) => ({
  model: "meta-llama-3.1-8b-instruct",
  prompt: "Say this is a test",
  stream: true,
  ...extra,
})

export const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: "meta-llama-3.1-8b-instruct",
  messages: [{ role: "user", content: "Hello there" }],
  stream: true,
  ...extra,
})
