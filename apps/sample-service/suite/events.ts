// Reading a resumable stream as a browser's EventSource does, for the samples' tests: events with their `id:`, read
// one at a time so that a test can drop the connection after k of them, and the requests that start, resume and
// cancel a stream. Web standards only (fetch, streams), independent of the code under test.

/** One server-sent event with the `id:` field it carried (`undefined` when it had none). */
export interface IdEvent {
  readonly id: string | undefined
  readonly event: string | undefined
  readonly data: string
}

/** An open event stream, read one event at a time. */
export interface EventReader {
  /** The next event, or `undefined` once the body ended. */
  next(): Promise<IdEvent | undefined>
  /** Drops the connection, as a reader that goes away does. */
  drop(): Promise<void>
}

/**
 * Reads a `text/event-stream` body event by event: lines end with CRLF, LF or CR, a blank line dispatches an event
 * that has data, comments are skipped, one space after the colon is dropped. `abort`, when given, is aborted on
 * `drop()` (the fetch's own controller, so that the socket closes).
 */
export const eventReader = (res: Response, abort?: AbortController): EventReader => {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  let ended = false
  let id: string | undefined
  let event: string | undefined
  let data: Array<string> = []
  const line = (text: string): IdEvent | undefined => {
    if (text === "") {
      const dispatched = data.length > 0 ? { id, event, data: data.join("\n") } : undefined
      id = undefined
      event = undefined
      data = []
      return dispatched
    }
    if (text.startsWith(":")) return undefined
    const colon = text.indexOf(":")
    const field = colon < 0 ? text : text.slice(0, colon)
    const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "")
    if (field === "data") data.push(value)
    else if (field === "event") event = value
    else if (field === "id") id = value
    return undefined
  }
  return {
    next: async () => {
      for (;;) {
        // a CR at the very end may be half of a CRLF: wait for the next piece unless the body ended
        const match = /\r\n|\r|\n/.exec(buffer)
        if (match !== null && (match[0] !== "\r" || match.index < buffer.length - 1 || ended)) {
          const text = buffer.slice(0, match.index)
          buffer = buffer.slice(match.index + match[0].length)
          const dispatched = line(text)
          if (dispatched !== undefined) return dispatched
          continue
        }
        if (ended) return undefined
        const { done, value } = await reader.read()
        if (done) {
          ended = true
          buffer += decoder.decode()
        } else buffer += decoder.decode(value, { stream: true })
      }
    },
    drop: async () => {
      abort?.abort()
      await reader.cancel().catch(() => {})
    },
  }
}

/** Every remaining event of a reader, to the end of its body. */
export const readAll = async (reader: EventReader): Promise<Array<IdEvent>> => {
  const events: Array<IdEvent> = []
  for (let e = await reader.next(); e !== undefined; e = await reader.next()) events.push(e)
  return events
}

/** Up to `count` events of a reader (fewer when its body ends first). */
export const readSome = async (reader: EventReader, count: number): Promise<Array<IdEvent>> => {
  const events: Array<IdEvent> = []
  while (events.length < count) {
    const e = await reader.next()
    if (e === undefined) break
    events.push(e)
  }
  return events
}

/** A response and its event reader, with the controller that drops it. */
export interface Opened {
  readonly res: Response
  readonly events: EventReader
}

/** Starts a stream with `POST <url>/v1/stream`. */
export const start = async (url: string, body: unknown): Promise<Opened> => {
  const abort = new AbortController()
  const res = await fetch(`${url}/v1/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: abort.signal,
  })
  return { res, events: eventReader(res, abort) }
}

/** `GET <url><location>`, with `Last-Event-ID` when given: a resume (or, without it, a replay from the start). */
export const resume = async (url: string, location: string, lastEventId?: string): Promise<Opened> => {
  const abort = new AbortController()
  const res = await fetch(new URL(location, url), {
    headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId },
    signal: abort.signal,
  })
  return { res, events: eventReader(res, abort) }
}

/** `DELETE <url><location>`: its status and its JSON body (or text, when it is not JSON). */
export const cancel = async (url: string, location: string): Promise<{ status: number; body: unknown }> => {
  const res = await fetch(new URL(location, url), { method: "DELETE" })
  const text = await res.text()
  try {
    return { status: res.status, body: JSON.parse(text) }
  } catch {
    return { status: res.status, body: text }
  }
}

/** The path of a stream's `Location` header (it may be absolute), failing when there is none. */
export const locationOf = (res: Response): string => {
  const location = res.headers.get("location")
  if (location === null) throw new Error(`no Location header (status ${res.status})`)
  return new URL(location, "http://x").pathname
}

/** The seq of an event id `<stream>.<seq>`. */
export const seqOf = (id: string | undefined): number => Number(id?.slice(id.lastIndexOf(".") + 1))

/** Whether an event is a stream's end: `[DONE]`, or an `event: error` (an in-stream error or a stored end). */
export const isEnd = (e: IdEvent): boolean => e.data === "[DONE]" || e.event === "error"

/** How an end event says the stream ended: `done`, or the `code` of its error (`cancelled`, `producer_lost`…). */
export const endReasonOf = (e: IdEvent): string => {
  if (e.data === "[DONE]") return "done"
  const error = (JSON.parse(e.data) as { error?: { code?: unknown; type?: unknown } }).error
  return String(error?.code ?? error?.type)
}
