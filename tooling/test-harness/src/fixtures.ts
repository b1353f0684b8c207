/**
 * The helpers every suite shares, one per job: request bodies for the mock's model, collecting an async iterable,
 * reading a body, and a plain SSE parser that is independent of the code under test. Web standards only, so that
 * they run on Node, Deno, Bun and workerd alike.
 */

/** The model the mock serves (`@friendli-stream/testing`'s default) and every test asks for. */
export const MODEL = "meta-llama-3.1-8b-instruct"

/** A small completions request for the mock's model; `extra` adds or overrides fields. */
export const completionRequest = (prompt = "Say hello", extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  prompt,
  max_tokens: 12,
  ...extra,
})

/** A small chat request for the mock's model, one user message; `extra` adds or overrides fields. */
export const chatRequest = (content = "Say hello", extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  messages: [{ role: "user" as const, content }],
  max_tokens: 12,
  ...extra,
})

/** Iterates to the end: the items delivered, and the error thrown (if any). */
export const collect = async <A>(iterable: AsyncIterable<A>): Promise<{ items: Array<A>; error: unknown }> => {
  const items: Array<A> = []
  try {
    for await (const a of iterable) items.push(a)
    return { items, error: undefined }
  } catch (error) {
    return { items, error }
  }
}

/** Reads a body to its end: every piece it was read in, and the whole text (UTF-8). */
export const readBody = async (
  body: Response | ReadableStream<Uint8Array>,
): Promise<{ pieces: Array<Uint8Array>; text: string }> => {
  const stream = body instanceof Response ? body.body : body
  const pieces: Array<Uint8Array> = []
  if (stream === null) return { pieces, text: "" }
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { pieces, text: text + decoder.decode() }
    pieces.push(value)
    text += decoder.decode(value, { stream: true })
  }
}

/**
 * One server-sent event: its `event:` name (if any), its `data:` lines joined with `\n`, and its own `id:` field
 * (present only on an event that had one).
 */
export interface SseEvent {
  readonly event: string | undefined
  readonly data: string
  readonly id?: string
}

/**
 * A plain SSE parser, independent of the code under test: lines end with CRLF, LF or CR; a blank line dispatches the
 * event when it has data; one space after the colon is dropped; comments (`:`) are counted, not events; an event
 * that no blank line ends is dropped, as the SSE specification says.
 */
export const parseSse = (text: string): { events: Array<SseEvent>; comments: number } => {
  const events: Array<SseEvent> = []
  let comments = 0
  let event: string | undefined
  let data: Array<string> = []
  let id: string | undefined
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) events.push({ event, data: data.join("\n"), ...(id === undefined ? {} : { id }) })
      event = undefined
      data = []
      id = undefined
    } else if (line.startsWith(":")) comments++
    else if (line.startsWith("id:")) id = line.slice(3).replace(/^ /, "")
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""))
    else if (line.startsWith("event:")) event = line.slice(6).replace(/^ /, "")
  }
  return { events, comments }
}
