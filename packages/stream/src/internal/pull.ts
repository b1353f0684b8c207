/**
 * Reading a `ReadableStream` body, shared by the plain facade and the Effect body source.
 *
 * - The facade drives it one read at a time: `read` starts a read, `feed` decodes its result synchronously.
 * - The Effect source asks for whole batches with `pull`. A batch is handed on once at least one output is ready and
 *   the next read is not *already* available; reads that are already available join the batch. "Already available"
 *   means the read settles within {@link SETTLE_HOPS} microtask hops: a queued read settles in one hop on Node, Deno
 *   and Bun and in two on workerd, while bytes still on the network take a macrotask at least. So a batch never waits
 *   for the network, a chunk is handed on as soon as its bytes arrive, and a read costs about what it costs in a bare
 *   `await` loop.
 */
import { SseError, StreamError } from "../StreamError.ts"
import type { Decoder } from "./decoder.ts"
import { type ByteReader, type ByteStream, queueMicrotask, type ReadResult } from "./web.ts"

/** The most outputs one batch gathers before it is handed on. */
export const MAX_BATCH = 1024

/** How many microtask hops without a read settling mean that the next bytes are not there yet. */
export const SETTLE_HOPS = 3

/** Receives what one {@link BodyPuller.pull} produced: a batch (empty once the stream has ended) or the failure. */
export interface BatchWaiter<A> {
  readonly batch: (out: Array<A>) => void
  /** A `StreamError`, or a defect (anything else). */
  readonly fail: (error: unknown) => void
}

export class BodyPuller<A> {
  private reader: ByteReader | undefined = undefined
  /** A failure that comes after outputs still to hand on. */
  private failure: unknown = undefined
  /** Who waits for the next batch (`pull`). */
  private waiter: BatchWaiter<A> | undefined = undefined
  /** A read started by `pull` has not settled yet. */
  private inFlight = false
  /** A chain of availability checks is queued ({@link check}). */
  private checking = false
  /** Microtask hops since the last read settled. */
  private hops = 0
  /** The body ended, `[DONE]` came, or decoding failed: nothing more to read. */
  finished = false
  private readonly body: ByteStream
  readonly decoder: Decoder<A>

  constructor(body: ByteStream, decoder: Decoder<A>) {
    this.body = body
    this.decoder = decoder
  }

  /**
   * The next read (the facade's loop), or the failure waiting its turn, as a rejection. A rejection goes through
   * {@link failed}.
   */
  read(): Promise<ReadResult> {
    if (this.failure !== undefined) {
      const f = this.failure
      this.failure = undefined
      return Promise.reject(f)
    }
    return this.readBody()
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
      this.stop()
      const out = this.decoder.take()
      // A typed failure waits behind the outputs completed before it; a defect is thrown at once.
      if (out.length === 0 || !(e instanceof StreamError)) throw e
      this.failure = e
      return out
    }
    return this.decoder.take()
  }

  /** Whether `read` has anything left to give: more of the body, or a failure waiting its turn. */
  get done(): boolean {
    return this.finished && this.failure === undefined
  }

  /**
   * Asks for the next batch: `waiter` is called once, maybe synchronously, with a non-empty batch, with an empty one
   * once the stream has ended, or with the failure (after the outputs completed before it). One pull at a time.
   */
  pull(waiter: BatchWaiter<A>): void {
    this.waiter = waiter
    if (this.finished || this.decoder.stage.out.length >= MAX_BATCH) {
      this.deliver()
    } else if (!this.inFlight) {
      // Outputs decoded after the last batch went out go first, with whatever reads are already available.
      const ready = this.decoder.stage.out.length > 0
      this.readNext()
      if (ready) this.check()
    }
  }

  /** The waiter of `pull` is gone (its fiber was interrupted): a batch in the making stays for the next `pull`. */
  abandon(): void {
    this.waiter = undefined
  }

  /** Stops reading: cancels the body (a no-op once it has ended). */
  cancel(): Promise<void> {
    this.finished = true
    this.failure = undefined
    this.waiter = undefined
    return this.release(true)
  }

  private readBody(): Promise<ReadResult> {
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

  /** Stops reading after a decoding failure. */
  private stop(): void {
    this.finished = true
    this.release(true)
  }

  private readNext(): void {
    this.inFlight = true
    this.readBody().then(this.onRead, this.onReadError)
  }

  private readonly onRead = (result: ReadResult): void => {
    this.inFlight = false
    if (this.finished) return // cancelled while the read was in flight
    try {
      this.step(result)
    } catch (e) {
      // Handed on after the outputs already decoded (`deliver`).
      this.stop()
      this.failure = e
    }
    // Nobody waits: the outputs stay for the next `pull`, and reading pauses (back-pressure).
    if (this.waiter === undefined) return
    const ready = this.decoder.stage.out.length
    if (this.finished || ready >= MAX_BATCH) {
      this.deliver()
      return
    }
    this.readNext()
    if (ready > 0) this.check()
  }

  private readonly onReadError = (cause: unknown): void => {
    this.inFlight = false
    if (this.finished) return
    this.failure = this.failed(cause)
    if (this.waiter !== undefined) this.deliver()
  }

  /**
   * Hands the batch on unless the read just started settles within {@link SETTLE_HOPS} microtask hops; each read that
   * settles starts the count again. One chain of checks runs at a time.
   */
  private check(): void {
    this.hops = 0
    if (this.checking) return
    this.checking = true
    queueMicrotask(this.runCheck)
  }

  private readonly runCheck = (): void => {
    if (this.waiter === undefined || this.decoder.stage.out.length === 0) {
      this.checking = false
    } else if (++this.hops < SETTLE_HOPS) {
      queueMicrotask(this.runCheck)
    } else {
      this.checking = false
      this.deliver()
    }
  }

  private deliver(): void {
    const waiter = this.waiter
    if (waiter === undefined) return
    this.waiter = undefined
    const out = this.decoder.take()
    if (out.length > 0 || this.failure === undefined) {
      waiter.batch(out)
      return
    }
    const failure = this.failure
    this.failure = undefined
    waiter.fail(failure)
  }

  private release(cancel: boolean): Promise<void> {
    const reader = this.reader
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
