/**
 * The pull loop over a `ReadableStream` reader, shared by the plain facade and the Effect body source. It reads until
 * at least one output is ready, then keeps reading only while more bytes are *already* available (a read that settles
 * within a few microtasks), so a batch never waits for the network and a chunk is handed on as soon as its bytes
 * arrive.
 */
import { SseError, StreamError } from "../StreamError.ts"
import type { Decoder } from "./decoder.ts"
import type { ByteReader, ByteStream, ReadResult } from "./web.ts"

/** The most outputs one batch gathers before it is handed on. */
export const MAX_BATCH = 1024

const EMPTY: Array<never> = []

export class BodyPuller<A> {
  private reader: ByteReader | undefined
  private pending: Promise<ReadResult> | undefined
  private failure: StreamError | undefined
  private finished = false

  private readonly body: ByteStream
  readonly decoder: Decoder<A>
  /** Gather outputs across reads that are already available (worth it when each hand-over is costly). */
  private readonly batchReads: boolean

  constructor(body: ByteStream, decoder: Decoder<A>, batchReads: boolean) {
    this.body = body
    this.decoder = decoder
    this.batchReads = batchReads
  }

  /** The next non-empty batch; an empty array once the stream has ended. Rejects with the typed errors. */
  async next(): Promise<Array<A>> {
    if (this.failure !== undefined) {
      const f = this.failure
      this.failure = undefined
      this.finished = true
      throw f
    }
    if (this.finished) return EMPTY
    const decoder = this.decoder
    const reader = this.reader ?? this.open()
    try {
      for (;;) {
        let result: ReadResult
        try {
          result = await (this.pending ?? reader.read())
        } catch (cause) {
          throw this.readFailed(cause)
        } finally {
          this.pending = undefined
        }
        if (result.done) {
          this.finished = true
          decoder.finish()
          this.release(false)
          return decoder.take()
        }
        if (!decoder.push(result.value)) {
          this.finished = true
          this.release(true)
          return decoder.take()
        }
        const ready = decoder.stage.out.length
        if (ready === 0) continue
        if (!this.batchReads || ready >= MAX_BATCH) return decoder.take()
        // Is the next read already there? Its promise settles within one microtask hop if so.
        const next = reader.read()
        this.pending = next
        let settled = false
        next.then(
          () => {
            settled = true
          },
          () => {
            settled = true
          },
        )
        await undefined
        if (!settled) return decoder.take()
      }
    } catch (e) {
      this.finished = true
      this.release(true)
      if (!(e instanceof StreamError)) throw e
      const out = decoder.take()
      if (out.length === 0) throw e
      this.failure = e
      this.finished = false
      return out
    }
  }

  /** Stops reading: cancels the body (a no-op once it has ended). */
  cancel(): Promise<void> {
    this.finished = true
    return this.release(true)
  }

  private open(): ByteReader {
    try {
      this.reader = this.body.getReader()
      return this.reader
    } catch (cause) {
      throw this.readFailed(cause)
    }
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
