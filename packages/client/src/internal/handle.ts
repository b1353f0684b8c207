/**
 * The Promise facade's stream handle: one Effect stream, pulled batch by batch through a `ManagedRuntime`, seen as
 * an `AsyncIterable`, a final accumulated response, a re-encoded SSE `ReadableStream`, or a `Response` carrying
 * it. Aborting (the handle, the caller's `AbortSignal`, `break` in `for await`, cancelling the `ReadableStream` or
 * the `Response`'s body) interrupts the pull and closes the request's scope, which aborts the request and closes
 * its connection.
 */

import { SseResponse } from "@friendli-stream/stream"
import { clearTimer, iterationDone, setTimer } from "@friendli-stream/stream/internal"
import * as Cause from "effect/Cause"
import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import type * as Stream from "effect/Stream"
import { BatchFeed } from "./feed.ts"
import {
  type AbortSignalLike,
  abortError,
  encodeText,
  type HeadersInitLike,
  makeAbortController,
  makeReadableStream,
  type WebReadableStream,
  type WebResponse,
} from "./globals.ts"
import { errorResponse, streamResponse } from "./response.ts"
import { CHAT_ENCODING, encodeError, type SseEncoding } from "./sseEncoding.ts"

/**
 * The first item, or its failure, if it comes within `ms` (for a finite `ms` above 0: any time); `undefined` when it
 * takes longer (it is still being read).
 */
const firstWithin = async <A>(
  first: Promise<A>,
  ms: number,
): Promise<{ readonly item: A } | { readonly error: unknown } | undefined> => {
  const settled = first.then(
    (item) => ({ item }),
    (error: unknown) => ({ error }),
  )
  if (!(ms > 0 && Number.isFinite(ms))) return settled
  let timer: unknown
  const late = new Promise<undefined>((resolve) => {
    timer = setTimer(() => resolve(undefined), ms)
  })
  try {
    return await Promise.race([settled, late])
  } finally {
    clearTimer(timer)
  }
}

/** What the handle folds delivered items into. */
export interface Accumulator<A, F> {
  add(item: A): unknown
  result(): F
}

type Runtime<R> = ManagedRuntime.ManagedRuntime<R, never>

/**
 * Runs an effect on the runtime (a `ManagedRuntime`, or `Effect` itself for an effect that needs nothing); its typed
 * failure (or the abort reason, when aborted) is thrown as it is.
 */
export const runOrThrow = async <A, E, R>(
  runtime: Pick<Runtime<R>, "runPromiseExit">,
  effect: Effect.Effect<A, E, R>,
  signal: AbortSignalLike | undefined,
): Promise<A> => {
  if (signal?.aborted) throw signal.reason ?? abortError("The request was aborted.")
  const exit = await runtime.runPromiseExit(effect, signal === undefined ? undefined : { signal: signal as never })
  if (Exit.isSuccess(exit)) return exit.value
  if (signal?.aborted && Cause.hasInterruptsOnly(exit.cause))
    throw signal.reason ?? abortError("The request was aborted.")
  const failure = Cause.findErrorOption(exit.cause)
  throw Option.isSome(failure) ? failure.value : Cause.squash(exit.cause)
}

/** The promise client's `StreamHandle` (PromiseClient.ts), over an Effect stream run on the client's runtime. */
export class EffectStreamHandle<A, E, R, F> implements AsyncIterable<A> {
  private readonly controller = makeAbortController()
  private readonly finished: Promise<F>
  private resolveFinished!: (value: F) => void
  private rejectFinished!: (reason: unknown) => void
  private consumed = false
  private ended = false
  private feed: BatchFeed<A, E, R> | undefined
  private batch: ReadonlyArray<A> = []
  private at = 0
  private readonly onSignal: () => void

  private readonly runtime: Runtime<R>
  private readonly stream: Stream.Stream<A, E, R>
  private readonly acc: Accumulator<A, F>
  private readonly signal: AbortSignalLike | undefined
  private readonly encoding: SseEncoding

  constructor(
    runtime: Runtime<R>,
    stream: Stream.Stream<A, E, R>,
    acc: Accumulator<A, F>,
    signal: AbortSignalLike | undefined,
    encoding: SseEncoding = CHAT_ENCODING,
  ) {
    this.runtime = runtime
    this.encoding = encoding
    this.stream = stream
    this.acc = acc
    this.signal = signal
    this.finished = new Promise<F>((resolve, reject) => {
      this.resolveFinished = resolve
      this.rejectFinished = reject
    })
    this.finished.catch(() => {})
    this.onSignal = () => this.abort(signal?.reason)
    if (signal?.aborted) this.abort(signal.reason)
    else signal?.addEventListener("abort", this.onSignal, { once: true })
  }

  /** Whether the stream was aborted. */
  get aborted(): boolean {
    return this.controller.signal.aborted
  }

  /** Aborts the request: the iteration throws `reason` (an `AbortError` by default), the connection closes. */
  abort(reason?: unknown): void {
    if (this.controller.signal.aborted) return
    this.controller.abort(reason ?? abortError("The stream was aborted."))
    void this.finish({ _tag: "Aborted" })
  }

  [Symbol.asyncIterator](): AsyncIterator<A> {
    this.claim()
    return {
      next: () => this.next(),
      return: async () => {
        await this.finish({ _tag: "Aborted", reason: abortError("The stream was closed before its end (break).") })
        return iterationDone
      },
    }
  }

  /** The response the whole stream folds into; reads the stream to its end unless something else already does. */
  finalCompletion(): Promise<F> {
    if (!this.consumed) {
      this.claim()
      void (async () => {
        try {
          while (!(await this.next()).done) {
            // every item is folded into the accumulator by next()
          }
        } catch {
          // finished rejects with the same failure
        }
      })()
    }
    return this.finished
  }

  /**
   * The stream as server-sent events, in the API's own framing (chat: `data: {chunk}` per item, then `data: [DONE]`),
   * or an `event: error`.
   */
  toReadableStream(): WebReadableStream {
    this.claim()
    return this.sse(undefined)
  }

  /**
   * Waits for the first item: then `200` with the server-sent events; a failure before it is a JSON error. When the
   * first item takes longer than `keepAliveMs`, answers `200` at once and sends keep-alive comments while it waits (a
   * failure is then the stream's `event: error`): a proxy would otherwise give up on the response's headers.
   */
  async toResponse(init?: {
    readonly headers?: HeadersInitLike | undefined
    readonly keepAliveMs?: number | undefined
  }): Promise<WebResponse> {
    this.claim()
    const keepAliveMs = init?.keepAliveMs ?? SseResponse.DEFAULT_KEEP_ALIVE_MS
    const first = this.next()
    const early = await firstWithin(first, keepAliveMs)
    if (early !== undefined && "error" in early) return errorResponse(early.error, init?.headers)
    const body = this.sse(early === undefined ? first : early.item)
    return streamResponse(SseResponse.withKeepAlive(body, keepAliveMs), init?.headers)
  }

  /** The server-sent events, from `first` (an item already read, or being read) on. */
  private sse(first: Promise<IteratorResult<A>> | IteratorResult<A> | undefined): WebReadableStream {
    let closed = false
    let head = first
    return makeReadableStream({
      pull: async (controller) => {
        if (closed) return
        try {
          const item = head === undefined ? await this.next() : await head
          head = undefined
          if (item.done) {
            closed = true
            if (this.encoding.done !== "") controller.enqueue(encodeText(this.encoding.done))
            controller.close()
          } else {
            const encode = this.encoding.event
            let text = encode(item.value)
            while (this.at < this.batch.length) text += encode((await this.next()).value)
            controller.enqueue(encodeText(text))
          }
        } catch (error) {
          closed = true
          controller.enqueue(encodeText(encodeError(error)))
          controller.close()
        }
      },
      cancel: async () => {
        closed = true
        await this.finish({ _tag: "Aborted", reason: abortError("The SSE stream was cancelled.") })
      },
    })
  }

  private claim(): void {
    if (this.consumed) {
      throw new TypeError(
        "This stream was already consumed: iterate it, call finalCompletion(), toReadableStream() or toResponse() once " +
          "(finalCompletion() may also be called while iterating).",
      )
    }
    this.consumed = true
  }

  private async next(): Promise<IteratorResult<A>> {
    if (this.at < this.batch.length) {
      const item = this.batch[this.at++] as A
      this.acc.add(item)
      return { done: false, value: item }
    }
    if (this.ended) {
      if (this.controller.signal.aborted) throw this.controller.signal.reason
      return iterationDone
    }
    const signal = this.controller.signal
    try {
      // One fiber per stream pulls the batches (Effect 4's pulls hand on non-empty batches only).
      this.feed ??= new BatchFeed(this.runtime, this.stream)
      const batch = await this.feed.next()
      if (batch === undefined) {
        await this.finish({ _tag: "Done" })
        return iterationDone
      }
      this.batch = batch
      this.at = 1
      const item = batch[0] as A
      this.acc.add(item)
      return { done: false, value: item }
    } catch (error) {
      if (signal.aborted) {
        await this.finish({ _tag: "Aborted" })
        throw signal.reason
      }
      await this.finish({ _tag: "Failed", error })
      throw error
    }
  }

  private async finish(
    how: { _tag: "Done" } | { _tag: "Failed"; error: unknown } | { _tag: "Aborted"; reason?: unknown },
  ): Promise<void> {
    if (this.ended) return
    this.ended = true
    this.batch = []
    this.at = 0
    this.signal?.removeEventListener("abort", this.onSignal)
    if (how._tag === "Aborted" && !this.controller.signal.aborted) this.controller.abort(how.reason)
    const feed = this.feed
    this.feed = undefined
    // Closing the connection fails only with the interruption an abort caused (seen on Deno when the request is
    // aborted mid-read): nothing waits for it, and it must neither reject abort()'s promise unhandled nor leave
    // `finished` unsettled.
    if (feed !== undefined) await feed.close().catch(() => {})
    if (how._tag === "Done") {
      try {
        this.resolveFinished(this.acc.result())
      } catch (error) {
        // an accumulator that could not fold what it was given (e.g. tool arguments that are not JSON)
        this.rejectFinished(error)
      }
    } else this.rejectFinished(how._tag === "Failed" ? how.error : this.controller.signal.reason)
  }
}
