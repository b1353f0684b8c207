/**
 * Layer 3: lines -> events, as WHATWG HTML §9.2.6 "Interpreting an event stream" says
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 *
 * - an empty line dispatches the event;
 * - a line starting with `:` is a comment and is ignored;
 * - otherwise the field name runs up to the first `:` (or is the whole line, the value then being empty), and one
 *   leading space of the value is removed;
 * - `event` sets the event type buffer, `data` appends to the data buffer (lines joined with LF), `id` sets the last
 *   event ID buffer unless the value contains U+0000, `retry` sets the stream's reconnection time when the value is
 *   ASCII digits only (and is ignored otherwise, never failing the stream); other fields are ignored; field names
 *   are compared as they are (no case folding).
 *
 * Dispatch ("dispatch the event"): the last event ID persists from event to event (it is never reset, and an `id`
 * in a block without data still counts); a block without any `data` field dispatches nothing, but a `data` field with
 * an empty value does (`data:` alone gives data `""`); the event type buffer is reset after every block. The
 * reconnection time is stream state, not event state: it is reported on every event dispatched after it was set,
 * including a `retry` that came alone in a block without data (e.g. `retry: 500` first).
 *
 * One departure, asked for by the JSON decoders only (`errorsWithoutData`): a block named `error` without any `data`
 * field is dispatched too (with data `""`), so that a failure never vanishes. `Sse.decode` does not ask for it.
 * Skipping events whose data is empty is the JSON layer's business (`json.ts`), not this one's.
 */
import { COLON, LOWER_A, LOWER_D, LOWER_T, SPACE } from "./chars.ts"
import type { LineSink } from "./lines.ts"

/**
 * Receives each dispatched event; returns `false` to stop parsing. `id` is the last event ID (`undefined` while it is
 * empty), `retry` the reconnection time in force, and `index` counts dispatched events from 0.
 */
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
  /** The event stream's reconnection time, set by the last valid `retry` field; `undefined` until one. */
  private reconnectionTime: number | undefined = undefined
  /** How many events were dispatched. */
  count = 0

  private readonly sink: EventSink
  private readonly maxEventLength: number
  private readonly errorsWithoutData: boolean

  /** `errorsWithoutData`: also dispatch a block named `error` that has no `data` field (see the module doc). */
  constructor(sink: EventSink, maxEventLength: number, errorsWithoutData = false) {
    this.sink = sink
    this.maxEventLength = maxEventLength
    this.errorsWithoutData = errorsWithoutData
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
    // §9.2.6: "If the line is empty (a blank line): Dispatch the event".
    if (start === end) return this.dispatch()
    const c = text.charCodeAt(start)
    // "If the line starts with a U+003A COLON character (:): Ignore the line."
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
    // "If the line contains a U+003A COLON character": the field is what comes before it, the value what comes after,
    // less one leading space. "Otherwise": the whole line is the field, and the value is the empty string.
    let colon = start
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++
    const field = text.slice(start, colon)
    let v = colon + 1
    if (v < end && text.charCodeAt(v) === SPACE) v++
    const value = v < end ? text.slice(v, end) : ""
    // "Process the field": names compared literally; "Otherwise: The field is ignored."
    switch (field) {
      case "data":
        this.append(value)
        break
      case "event":
        this.type = value
        break
      case "id":
        // "If the field value does not contain U+0000 NULL, then set the last event ID buffer to the field value."
        if (value.indexOf("\u0000") === -1) this.lastId = value
        break
      case "retry":
        // "If the field value consists of only ASCII digits, then interpret the field value as an integer in base
        // ten, and set the event stream's reconnection time to that integer. Otherwise, ignore the field."
        if (isDigits(value)) this.reconnectionTime = Number.parseInt(value, 10)
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

  /** §9.2.6 "dispatch the event". */
  private dispatch(): boolean {
    const data = this.data
    const hasData = this.hasData
    const type = this.type
    // Step 1: the last event ID string is the buffer's value (`lastId` plays both parts: it is never reset).
    // Steps 2 and 7: the data and event type buffers are emptied whether or not an event is dispatched.
    this.data = ""
    this.hasData = false
    this.type = ""
    // Step 2: an empty data buffer (no `data` field: one with an empty value leaves an LF in it) dispatches nothing.
    if (!hasData && !(this.errorsWithoutData && type === "error")) return true
    // Steps 3–6: the trailing LF is never added (lines are joined); the type defaults to "message".
    return this.sink.event(
      type === "" ? "message" : type,
      data,
      this.lastId === "" ? undefined : this.lastId,
      this.reconnectionTime,
      this.count++,
    )
  }
}
