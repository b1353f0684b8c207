/**
 * Layer 3: lines -> events. WHATWG HTML §9.2.6 "Interpreting an event stream":
 *
 * - an empty line dispatches the event;
 * - a line starting with `:` is a comment and is ignored;
 * - otherwise the field name runs up to the first `:` (or the whole line), and one leading space of the value is
 *   removed;
 * - `event` sets the event type, `data` appends to the data buffer (lines joined with LF), `id` sets the last event
 *   id unless it contains U+0000, `retry` sets the reconnection time when it is ASCII digits only (and is ignored
 *   otherwise, never failing the stream); other fields are ignored.
 *
 * Two departures, asked for by the decoders above: an event whose data is empty is skipped (WHATWG would dispatch it
 * when a `data:` line was present), except an event named `error`, which is dispatched even without data (WHATWG
 * would drop it) so that a failure never vanishes.
 */
import { COLON, LOWER_A, LOWER_D, LOWER_T, SPACE } from "./chars.ts"
import type { LineSink } from "./lines.ts"

/** Receives each dispatched event; returns `false` to stop parsing. `index` counts dispatched events from 0. */
export interface EventSink {
  event(type: string, data: string, id: string | undefined, retry: number | undefined, index: number): boolean
}

/** Thrown (and turned into a typed error by the caller) when an event's data grows past the limit. */
export class EventTooLong {
  readonly length: number
  constructor(length: number) {
    this.length = length
  }
}

const isDigits = (s: string): boolean => {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return false
  }
  return true
}

/** The event-stream interpreter: a {@link LineSink} that dispatches events to an {@link EventSink}. */
export class EventParser implements LineSink {
  private data = ""
  private hasData = false
  private type = ""
  private lastId = ""
  private retry: number | undefined = undefined
  /** How many events were dispatched. */
  count = 0

  private readonly sink: EventSink
  private readonly maxEventLength: number

  constructor(sink: EventSink, maxEventLength: number) {
    this.sink = sink
    this.maxEventLength = maxEventLength
  }

  /** Whether fields of an event that has not been dispatched yet were seen. */
  get hasPartialEvent(): boolean {
    return this.hasData
  }

  /** The data of the event that has not been dispatched yet, if it has any. */
  get pendingData(): string | undefined {
    return this.hasData ? this.data : undefined
  }

  line(text: string, start: number, end: number): boolean {
    if (start === end) return this.dispatch()
    const c = text.charCodeAt(start)
    if (c === COLON) return true
    // Fast path: `data:`.
    if (
      c === LOWER_D &&
      end - start >= 5 &&
      text.charCodeAt(start + 4) === COLON &&
      text.charCodeAt(start + 1) === LOWER_A &&
      text.charCodeAt(start + 2) === LOWER_T &&
      text.charCodeAt(start + 3) === LOWER_A
    ) {
      let v = start + 5
      if (v < end && text.charCodeAt(v) === SPACE) v++
      this.append(text.slice(v, end))
      return true
    }
    let colon = start
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++
    const field = text.slice(start, colon)
    let v = colon + 1
    if (v < end && text.charCodeAt(v) === SPACE) v++
    const value = v < end ? text.slice(v, end) : ""
    switch (field) {
      case "data":
        this.append(value)
        break
      case "event":
        this.type = value
        break
      case "id":
        if (value.indexOf("\u0000") === -1) this.lastId = value
        break
      case "retry":
        if (isDigits(value)) this.retry = Number.parseInt(value, 10)
        break
    }
    return true
  }

  private append(value: string): void {
    if (this.hasData) {
      this.data = `${this.data}\n${value}`
    } else {
      this.data = value
      this.hasData = true
    }
    if (this.data.length > this.maxEventLength) throw new EventTooLong(this.data.length)
  }

  private dispatch(): boolean {
    const data = this.data
    const hasData = this.hasData
    const type = this.type
    const retry = this.retry
    this.data = ""
    this.hasData = false
    this.type = ""
    this.retry = undefined
    // Events without data are skipped, except an `error` event: a failure must never vanish.
    if ((!hasData || data.length === 0) && type !== "error") return true
    return this.sink.event(
      type === "" ? "message" : type,
      data,
      this.lastId === "" ? undefined : this.lastId,
      retry,
      this.count++,
    )
  }
}
