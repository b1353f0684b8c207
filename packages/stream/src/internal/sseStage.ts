/** The stage of `Sse.decode`: every dispatched event becomes an `SseEvent` object; the body may end anywhere. */
import type { Stage } from "./decoder.ts"

/** One event of an event stream. */
export interface SseEvent {
  /** The event type: the `event` field, `"message"` when there was none. */
  readonly event: string
  /** The data lines joined with `\n`. */
  readonly data: string
  /** The last event id (WHATWG "last event ID buffer"), `undefined` until a server sends one. */
  readonly id: string | undefined
  /** The reconnection time in milliseconds set by a `retry` field of this event, if any. */
  readonly retry: number | undefined
}

export class SseStage implements Stage<SseEvent> {
  out: Array<SseEvent> = []
  readonly sawDone = false
  readonly checksEnd = false
  event(event: string, data: string, id: string | undefined, retry: number | undefined): boolean {
    this.out.push({ event, data, id, retry })
    return true
  }
  flush(): void {}
}
