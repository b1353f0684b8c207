/**
 * The synchronous core that every public decoder drives with whole reads: bytes -> text -> lines -> events -> a
 * stage that turns events into outputs. No Effect, no promises: one call per read, outputs collected in an array.
 */
import { SseError, StreamTruncated } from "../StreamError.ts"
import { isDone } from "./done.ts"
import { EventParser, type EventSink, EventTooLong } from "./events.ts"
import { LineSplitter, LineTooLong } from "./lines.ts"
import { Utf8Decoder } from "./utf8.ts"

/** Turns dispatched events into outputs, pushed on `out`. */
export interface Stage<A> extends EventSink {
  out: Array<A>
  /** Whether the stream ended properly (`[DONE]` seen); a stage that never stops leaves it `false`. */
  readonly sawDone: boolean
  /** Whether the stream reached its protocol's terminal event: nothing after it is read. */
  readonly finished: boolean
  /** Whether the body must end properly (`[DONE]`, a terminal event) or at an event boundary; `false` accepts any end. */
  readonly checksEnd: boolean
  /** Whether a block named `error` without any `data` field is dispatched too (WHATWG would drop it). */
  readonly errorsWithoutData: boolean
  /** Finishes the events of one read (a stage may defer their costly part to here); throws the typed errors. */
  flush(): void
  /**
   * What the stream still lacks to have ended properly, once it stopped or the body ended at an event boundary
   * (`doneSeen`: a `data: [DONE]` came): {@link MISSING_DONE}, the name of a protocol's terminal event, or
   * `undefined` for a proper end.
   */
  missingEnd(doneSeen: boolean): string | undefined
}

/** What {@link Stage.missingEnd} answers when only `data: [DONE]` is missing (the chat and completion streams). */
export const MISSING_DONE = '"data: [DONE]"'

/** The decoder's limits and end rules. */
export interface CoreOptions {
  readonly maxEventBytes: number
  readonly requireDone: boolean
}

/** Drives one body through the layers. */
export class Decoder<A> {
  private readonly utf8 = new Utf8Decoder()
  private readonly events: EventParser
  private readonly lines: LineSplitter
  bytesRead = 0
  /** `[DONE]` was seen (or a stage stopped): nothing more is read. */
  stopped = false

  readonly stage: Stage<A>
  readonly options: CoreOptions

  constructor(stage: Stage<A>, options: CoreOptions) {
    this.stage = stage
    this.options = options
    this.events = new EventParser(stage, options.maxEventBytes, stage.errorsWithoutData)
    this.lines = new LineSplitter(this.events, options.maxEventBytes)
  }

  /** Feeds one read; returns `false` once the stream has ended (`[DONE]`). Throws the typed errors. */
  push(bytes: Uint8Array): boolean {
    if (this.stopped) return false
    this.bytesRead += bytes.length
    this.feed(this.utf8.push(bytes))
    return !this.stopped
  }

  /** The body ended: flushes, then throws `StreamTruncated` when the end was not a proper one. */
  finish(): void {
    if (this.stopped) return
    this.feed(this.utf8.end())
    if (this.stopped || !this.stage.checksEnd) return
    // A whole `data: [DONE]` line that only lacks the blank line after it still counts as `[DONE]`.
    const doneLine =
      !this.lines.hasPartialLine && this.events.pendingData !== undefined && isDone(this.events.pendingData)
    if (!doneLine && (this.lines.hasPartialLine || this.events.hasPartialEvent)) throw this.truncated(undefined)
    this.checkEnd(doneLine)
  }

  /** Throws `StreamTruncated` when the stream lacks its proper end (and the options ask for one). */
  private checkEnd(doneSeen: boolean): void {
    if (!this.options.requireDone) return
    const missing = this.stage.missingEnd(doneSeen)
    if (missing !== undefined) throw this.truncated(missing)
  }

  /** The truncation: in the middle of an event (`missing` undefined), or at a boundary before the proper end. */
  private truncated(missing: string | undefined): StreamTruncated {
    const n = this.events.count
    const where = `after ${n} event${n === 1 ? "" : "s"} (${this.bytesRead} bytes)`
    const midEvent = missing === undefined
    return new StreamTruncated({
      message: midEvent
        ? `The body ended in the middle of an event ${where}: the connection was cut. Retry the request.`
        : missing === MISSING_DONE
          ? `The body ended without "data: [DONE]" ${where}: the connection was probably cut. Retry the request, ` +
            `or pass requireDone: false for a server that never sends [DONE].`
          : `The body ended before ${missing} ${where}: the connection was probably cut. Retry the request, ` +
            `or pass requireDone: false for a server that never sends it.`,
      midEvent,
      eventsDelivered: n,
      bytesRead: this.bytesRead,
    })
  }

  /** Hands over the outputs collected so far. */
  take(): Array<A> {
    const out = this.stage.out
    if (out.length === 0) return out
    this.stage.out = []
    return out
  }

  private feed(text: string): void {
    let failure: unknown
    try {
      this.lines.push(text)
    } catch (e) {
      failure = e instanceof LineTooLong || e instanceof EventTooLong ? this.tooLarge() : e
    }
    // The events before an oversized line are whole: they are delivered, or fail first.
    this.stage.flush()
    // An oversized line after the terminal event of the same read is past the end: it is not read.
    if (failure !== undefined && !this.stage.finished) throw failure
    if (this.lines.stopped || this.stage.finished) {
      this.stopped = true
      this.checkEnd(this.stage.sawDone)
    }
  }

  private tooLarge(): SseError {
    const max = this.options.maxEventBytes
    return new SseError({
      reason: "EventTooLarge",
      message:
        `A line or event grew past maxEventBytes (${max}) after ${this.bytesRead} bytes of the body: the server ` +
        `sent an oversized event, or the body is not an event stream. Raise maxEventBytes if such events are expected.`,
      bytesRead: this.bytesRead,
      maxEventBytes: max,
    })
  }
}
