// Reading the Worker's event streams in the tests: each event with its id, parsed here (independent of the code
// under test), optionally only the first `limit` events, after which the body is cancelled (a dropped reader).

/** One server-sent event as the tests see it. */
export interface IdEvent {
  readonly id: string | undefined
  readonly event: string | undefined
  readonly data: string
}

/** The events of an event-stream body (at most `limit`: then the body is cancelled), in order. */
export const readEvents = async (res: Response, limit = Number.POSITIVE_INFINITY): Promise<Array<IdEvent>> => {
  const events: Array<IdEvent> = []
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ""
  try {
    for (;;) {
      let end = buffer.indexOf("\n\n")
      while (end >= 0 && events.length < limit) {
        const lines = buffer.slice(0, end).split("\n")
        buffer = buffer.slice(end + 2)
        const field = (name: string) =>
          lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).replace(/^ /, ""))
        const data = field("data")
        if (data.length > 0)
          events.push({ id: field("id").at(-1), event: field("event").at(-1), data: data.join("\n") })
        end = buffer.indexOf("\n\n")
      }
      if (events.length >= limit) {
        await reader.cancel()
        return events
      }
      const { done, value } = await reader.read()
      if (done) return events
      buffer += value
    }
  } finally {
    reader.releaseLock()
  }
}

/** The text of choice 0 over the chunk events. */
export const textOf = (events: ReadonlyArray<IdEvent>): string =>
  events
    .filter((e) => e.event === undefined && e.data.startsWith("{"))
    .map((e) => (JSON.parse(e.data) as { choices: Array<{ text?: string }> }).choices[0]?.text ?? "")
    .join("")

/** The stream id and seq of an event id `<streamId>.<seq>`. */
export const splitId = (id: string | undefined): { streamId: string; seq: number } => {
  const dot = (id ?? "").lastIndexOf(".")
  return { streamId: (id ?? "").slice(0, dot), seq: Number((id ?? "").slice(dot + 1)) }
}

/** The `code` of an end event (`event: error` with `type: "stream_ended"`), or `"done"` for `[DONE]`. */
export const endOf = (event: IdEvent | undefined): string | undefined => {
  if (event === undefined) return undefined
  if (event.data === "[DONE]") return "done"
  if (event.event !== "error") return undefined
  const { error } = JSON.parse(event.data) as { error: { type: string; code: unknown } }
  return error.type === "stream_ended" ? String(error.code) : `error:${error.type}`
}
