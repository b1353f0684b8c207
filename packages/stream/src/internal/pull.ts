/**
 * Reading a `ReadableStream` body in batches: the one driver of the decoder core behind the plain facade, the Effect
 * body source and the client.
 *
 * A consumer asks for the next batch with {@link BodyPuller.pull}, and the puller reads until a read completes at
 * least one output: the batch is every output of that read (a network read often holds many events), handed on as
 * soon as its bytes arrive. Reads that complete nothing (a few bytes of a long event) cost no Effect step and no
 * promise of the consumer's. The body is read only while a pull waits, so a slow consumer slows the reading down
 * (back-pressure), and nothing depends on how many microtask hops a runtime takes to settle a read.
 */
import { SseError, StreamError } from "../StreamError.ts"
import type { ByteReader, ByteStream, ReadResult } from "./byteStream.ts"
import type { Decoder } from "./decoder.ts"

/** Receives what one {@link BodyPuller.pull} produced: a batch (empty once the stream has ended) or the failure. */
export interface BatchWaiter<A> {
  readonly batch: (out: Array<A>) => void
  /** The typed failure (`typed`: a `StreamError`, or what `readError` made of a failed read), or a defect. */
  readonly fail: (error: unknown, typed: boolean) => void
}

/** Turns a failed read of the body into the typed error to fail with (default: `SseError` `ReadFailed`). */
export type ReadErrorMapper = (cause: unknown, bytesRead: number) => unknown

export class BodyPuller<A> {
  private reader: ByteReader | undefined = undefined
  /** A failure that comes after the outputs still to hand on. */
  private failure: unknown = undefined
  /** Whether {@link failure} is a typed error (else a defect). */
  private typed = true
  /** Who waits for the next batch. */
  private waiter: BatchWaiter<A> | undefined = undefined
  /** A read has not settled yet. */
  private inFlight = false
  /** The body ended, `[DONE]` came, decoding failed or the puller was cancelled: nothing more is read. */
  private finished = false
  private readonly body: ByteStream
  private readonly readError: ReadErrorMapper | undefined
  readonly decoder: Decoder<A>

  constructor(body: ByteStream, decoder: Decoder<A>, readError?: ReadErrorMapper) {
    this.body = body
    this.decoder = decoder
    this.readError = readError
  }

  /**
   * Asks for the next batch: `waiter` is called once, synchronously when something is ready, with a non-empty
   * batch, with an empty one once the stream has ended, or with the failure (after every output completed before
   * it). One pull at a time.
   */
  pull(waiter: BatchWaiter<A>): void {
    if (this.finished || this.decoder.stage.out.length > 0) {
      this.waiter = waiter
      this.deliver()
      return
    }
    this.waiter = waiter
    if (!this.inFlight) this.readNext()
  }

  /** The waiter of `pull` is gone (its fiber was interrupted): what is decoded meanwhile stays for the next pull. */
  abandon(): void {
    this.waiter = undefined
  }

  /** Stops reading: cancels the body (a no-op once it has ended). */
  cancel(): Promise<void> {
    this.finished = true
    this.failure = undefined
    this.waiter = undefined
    this.decoder.take()
    return this.release(true)
  }

  private readNext(): void {
    let reader = this.reader
    if (reader === undefined) {
      try {
        reader = this.body.getReader()
      } catch (cause) {
        this.onReadError(cause)
        return
      }
      this.reader = reader
    }
    this.inFlight = true
    reader.read().then(this.onRead, this.onReadError)
  }

  private readonly onRead = (result: ReadResult): void => {
    this.inFlight = false
    if (this.finished) return // cancelled while the read was in flight
    try {
      if (result.done) {
        this.finished = true
        this.decoder.finish()
        this.release(false)
      } else if (!this.decoder.push(result.value)) {
        this.finished = true
        this.release(true)
      }
    } catch (e) {
      // Handed on after the outputs already decoded.
      this.finished = true
      this.failure = e
      this.typed = e instanceof StreamError
      this.release(true)
    }
    if (this.waiter === undefined) return // nobody pulls: reading pauses (back-pressure)
    if (this.finished || this.decoder.stage.out.length > 0) this.deliver()
    else this.readNext() // no whole output yet: the waiter needs the next read
  }

  private readonly onReadError = (cause: unknown): void => {
    this.inFlight = false
    if (this.finished) return
    this.finished = true
    this.failure =
      cause instanceof StreamError
        ? cause
        : this.readError !== undefined
          ? this.readError(cause, this.decoder.bytesRead)
          : this.readFailed(cause)
    this.typed = true
    this.release(true)
    if (this.waiter !== undefined) this.deliver()
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
    waiter.fail(failure, this.typed)
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
