/**
 * The stage of `Sse.decode`: every event WHATWG dispatches becomes an `SseEvent` object (data `""` included, nothing
 * else); the body may end anywhere.
 */
import type { Stage } from "./decoder.ts"

/** One event of an event stream. */
export interface SseEvent {
  /** The event type: the `event` field, `"message"` when there was none. */
  readonly event: string
  /** The data lines joined with `\n`. */
  readonly data: string
  /** The last event id (WHATWG "last event ID buffer"), `undefined` until a server sends one. */
  readonly id: string | undefined
  /**
   * The stream's reconnection time in milliseconds when this event was dispatched: the value of the last valid
   * `retry` field so far, in this event's block or any block before it (one without data included), `undefined`
   * until the server sends one.
   */
  readonly retry: number | undefined
}

export class SseStage implements Stage<SseEvent> {
  out: Array<SseEvent> = []
  readonly sawDone = false
  readonly finished = false
  readonly checksEnd = false
  readonly errorsWithoutData = false
  event(event: string, data: string, id: string | undefined, retry: number | undefined): boolean {
    this.out.push({ event, data, id, retry })
    return true
  }
  flush(): void {}
  missingEnd(): undefined {
    return undefined
  }
}
