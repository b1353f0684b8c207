/**
 * Reading a `ReadableStream` body, shared by the plain facade and the Effect body source. `read` starts (or resumes)
 * one read; `feed` decodes its result synchronously. `next` is the batched loop of the Effect source: it reads until
 * at least one output is ready, then keeps reading only while the next read is *already* available (it settles within
 * one microtask), so a batch never waits for the network and a chunk is handed on as soon as its bytes arrive.
 */
import { SseError, StreamError } from "../StreamError.ts"
import type { Decoder } from "./decoder.ts"
import type { ByteReader, ByteStream, ReadResult } from "./web.ts"

/** The most outputs one batch gathers before it is handed on. */
export const MAX_BATCH = 1024

export class BodyPuller<A> {
  private reader: ByteReader | undefined = undefined
  private pending: Promise<ReadResult> | undefined = undefined
  /** A failure that comes after outputs still to hand on: thrown by the next `read`. */
  private failure: StreamError | undefined = undefined
  /** The body ended, `[DONE]` came, or decoding failed: nothing more to read. */
  finished = false
  private readonly body: ByteStream
  readonly decoder: Decoder<A>

  constructor(body: ByteStream, decoder: Decoder<A>) {
    this.body = body
    this.decoder = decoder
  }

  /**
   * The next read (the raw `reader.read()` promise, so that whether it is already settled can be told), or the
   * failure waiting its turn. A rejection goes through {@link failed}.
   */
  read(): Promise<ReadResult> {
    if (this.failure !== undefined) {
      const f = this.failure
      this.failure = undefined
      return Promise.reject(f)
    }
    const pending = this.pending
    if (pending !== undefined) {
      this.pending = undefined
      return pending
    }
    let reader = this.reader
    if (reader === undefined) {
      try {
        reader = this.body.getReader()
      } catch (cause) {
        return Promise.reject(cause)
      }
      this.reader = reader
    }
    return reader.read()
  }

  /** Turns a rejection of {@link read} into the typed error to throw, and stops reading. */
  failed(cause: unknown): StreamError {
    this.finished = true
    if (cause instanceof StreamError) return cause
    this.release(true)
    return this.readFailed(cause)
  }

  /**
   * Decodes one read's result; returns the outputs it completed (often none). At the end of the body (or at
   * `[DONE]`) `finished` becomes true and the body is released. A typed failure is thrown at once when nothing was
   * completed before it, or else kept for the next `read` while those outputs are returned.
   */
  feed(result: ReadResult): Array<A> {
    try {
      this.step(result)
    } catch (e) {
      return this.fail(e)
    }
    return this.decoder.take()
  }

  /** Decodes one read, leaving its outputs with the decoder. */
  private step(result: ReadResult): void {
    if (result.done) {
      this.finished = true
      this.decoder.finish()
      this.release(false)
    } else if (!this.decoder.push(result.value)) {
      this.finished = true
      this.release(true)
    }
  }

  /** Stops on a decoding failure: returns the outputs completed before it (keeping the failure), or throws it. */
  private fail(e: unknown): Array<A> {
    this.finished = true
    this.release(true)
    if (!(e instanceof StreamError)) throw e
    const out = this.decoder.take()
    if (out.length === 0) throw e
    this.failure = e
    return out
  }

  /** Whether `read` has anything left to give: more of the body, or a failure waiting its turn. */
  get done(): boolean {
    return this.finished && this.failure === undefined
  }

  /** The next non-empty batch, gathering reads that are already available; empty once the stream has ended. */
  async next(): Promise<Array<A>> {
    for (;;) {
      if (this.done) return this.decoder.take()
      let result: ReadResult
      try {
        result = await this.read()
      } catch (cause) {
        // Outputs gathered already go first; the failure comes with the next call.
        const error = this.failed(cause)
        if (this.decoder.stage.out.length === 0) throw error
        this.failure = error
        return this.decoder.take()
      }
      try {
        this.step(result)
      } catch (e) {
        return this.fail(e)
      }
      const ready = this.decoder.stage.out.length
      if (ready === 0) continue
      if (ready >= MAX_BATCH || this.finished) return this.decoder.take()
      // Is the next read already there? Its promise settles within one microtask hop if so.
      const next = this.read()
      this.pending = next
      let settled = false
      const mark = () => {
        settled = true
      }
      next.then(mark, mark)
      await undefined
      if (!settled) return this.decoder.take()
    }
  }

  /** Stops reading: cancels the body (a no-op once it has ended). */
  cancel(): Promise<void> {
    this.finished = true
    this.failure = undefined
    return this.release(true)
  }

  private release(cancel: boolean): Promise<void> {
    const reader = this.reader
    this.pending?.catch(() => {})
    this.pending = undefined
    if (reader === undefined) return Promise.resolve()
    this.reader = undefined
    if (!cancel) {
      reader.releaseLock()
      return Promise.resolve()
    }
    return reader.cancel().then(
      () => reader.releaseLock(),
      () => {},
    )
  }

  private readFailed(cause: unknown): SseError {
    const detail = cause instanceof Error ? cause.message : String(cause)
    return new SseError({
      reason: "ReadFailed",
      message: `Reading the response body failed after ${this.decoder.bytesRead} bytes (${detail}). Retry the request.`,
      bytesRead: this.decoder.bytesRead,
      maxEventBytes: this.decoder.options.maxEventBytes,
      cause,
    })
  }
}
