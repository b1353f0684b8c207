/**
 * Layer 2: text -> lines. WHATWG HTML §9.2.5: lines end with CRLF, a lone LF or a lone CR. A CR at the end of one
 * read and an LF at the start of the next are one line end. A line's text is handed on as `(text, start, end)`
 * so that nothing is copied until a field value is needed.
 */
import { LF } from "./chars.ts"

/** Receives each complete line; returns `false` to stop the splitter (e.g. after `[DONE]`). */
export interface LineSink {
  line(text: string, start: number, end: number): boolean
}

/** Thrown (and turned into a typed error by the caller) when a line grows past the limit. */
export class LineTooLong {
  readonly length: number
  constructor(length: number) {
    this.length = length
  }
}

/** Splits text into lines, keeping at most `maxLineLength` characters of an unfinished line. */
export class LineSplitter {
  /** The start of a line whose end has not arrived yet. */
  private pending = ""
  /** The last character seen was a CR: an LF that comes next belongs to it. */
  private afterCR = false
  /** The sink asked to stop. */
  stopped = false

  private readonly sink: LineSink
  private readonly maxLineLength: number

  constructor(sink: LineSink, maxLineLength: number) {
    this.sink = sink
    this.maxLineLength = maxLineLength
  }

  /** Whether a line has started and not ended. */
  get hasPartialLine(): boolean {
    return this.pending.length > 0
  }

  /** Feeds text; every line it completes goes to the sink. */
  push(chunk: string): void {
    if (this.stopped || chunk.length === 0) return
    let pos = 0
    if (this.afterCR) {
      this.afterCR = false
      if (chunk.charCodeAt(0) === LF) pos = 1
    }
    const pending = this.pending
    if (pending.length === 0) {
      this.scan(chunk, pos, pos)
      return
    }
    // `pending` holds no line end: look in the new text only, so a long line read in small pieces costs O(length).
    if (chunk.indexOf("\n") === -1 && chunk.indexOf("\r") === -1) {
      const next = pending + chunk
      if (next.length > this.maxLineLength) throw new LineTooLong(next.length)
      this.pending = next
      return
    }
    this.pending = ""
    this.scan(pending + chunk, 0, pending.length)
  }

  /** `start` is where the current line began; `pos` is where to look for its end (no line end lies between). */
  private scan(text: string, start: number, pos: number): void {
    const sink = this.sink
    const max = this.maxLineLength
    const length = text.length
    let cr = text.indexOf("\r", pos)
    if (cr === -1) {
      // Fast path: LF line ends only.
      let lf = text.indexOf("\n", pos)
      while (lf !== -1) {
        if (lf - start > max) throw new LineTooLong(lf - start)
        if (!sink.line(text, start, lf)) {
          this.stop()
          return
        }
        start = lf + 1
        // The empty line that ends an event usually comes right after: no need to search for it.
        if (text.charCodeAt(start) === LF) {
          if (!sink.line(text, start, start)) {
            this.stop()
            return
          }
          start++
        }
        lf = text.indexOf("\n", start)
      }
    } else {
      let lf = text.indexOf("\n", pos)
      for (;;) {
        if (cr !== -1 && cr < start) cr = text.indexOf("\r", start)
        if (lf !== -1 && lf < start) lf = text.indexOf("\n", start)
        let end: number
        let next: number
        if (cr !== -1 && (lf === -1 || cr < lf)) {
          end = cr
          if (cr + 1 === length) {
            next = length
            this.afterCR = true
          } else {
            next = text.charCodeAt(cr + 1) === LF ? cr + 2 : cr + 1
          }
        } else if (lf !== -1) {
          end = lf
          next = lf + 1
        } else {
          break
        }
        if (end - start > max) throw new LineTooLong(end - start)
        if (!sink.line(text, start, end)) {
          this.stop()
          return
        }
        start = next
      }
    }
    if (start < length) {
      if (length - start > max) throw new LineTooLong(length - start)
      this.pending = text.slice(start)
    }
  }

  private stop(): void {
    this.stopped = true
    this.pending = ""
    this.afterCR = false
  }
}
