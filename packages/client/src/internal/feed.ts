/**
 * The Promise client's pump: one fiber per stream pulls the stream's batches, one pull per consumer demand, and
 * settles the consumer's promise with each. The fiber owns the stream's scope (interrupting it, or the stream's end,
 * closes it: the request is aborted and its connection closed), so a batch costs two resumptions of a waiting fiber
 * instead of a fiber, a runtime call and an abort listener per `next()`.
 */
import type { BatchPull } from "@friendli-stream/stream/internal"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Stream from "effect/Stream"

/** The typed failure of a cause (or, without one, what the cause squashes to), as `runOrThrow` throws it. */
export const failureOf = (cause: Cause.Cause<unknown>): unknown => {
  const failure = Cause.findErrorOption(cause)
  return Option.isSome(failure) ? failure.value : Cause.squash(cause)
}

/** Pulls the batches of one stream on demand, in one fiber run on the client's runtime. */
export class BatchFeed<A, E, R> {
  private fiber: Fiber.Fiber<void, unknown> | undefined = undefined
  /** The fiber waits for the next demand. */
  private demand: ((effect: Effect.Effect<void>) => void) | undefined = undefined
  private resolve: ((batch: ReadonlyArray<A> | undefined) => void) | undefined = undefined
  private reject: ((error: unknown) => void) | undefined = undefined
  private readonly runtime: ManagedRuntime.ManagedRuntime<R, never>
  private readonly stream: Stream.Stream<A, E, R>

  constructor(runtime: ManagedRuntime.ManagedRuntime<R, never>, stream: Stream.Stream<A, E, R>) {
    this.runtime = runtime
    this.stream = stream
  }

  /** The next batch (never empty), `undefined` at the end, or a rejection with the stream's failure. One at a time. */
  next(): Promise<ReadonlyArray<A> | undefined> {
    return new Promise(this.ask)
  }

  /** Interrupts the fiber (if any) and waits until it has closed the stream's scope. */
  close(): Promise<void> {
    const fiber = this.fiber
    if (fiber === undefined) return Promise.resolve()
    return this.runtime.runPromise(Fiber.interrupt(fiber))
  }

  private readonly ask = (
    resolve: (batch: ReadonlyArray<A> | undefined) => void,
    reject: (error: unknown) => void,
  ): void => {
    this.resolve = resolve
    this.reject = reject
    if (this.fiber === undefined) {
      this.fiber = this.runtime.runFork(Effect.scoped(Effect.flatMap(Stream.toPull(this.stream), this.loop)))
      this.fiber.addObserver(this.onExit)
      return
    }
    const demand = this.demand
    this.demand = undefined
    demand?.(Effect.void)
  }

  private readonly loop = (pull: BatchPull<A, E>): Effect.Effect<void> => {
    const step: Effect.Effect<void> = Effect.flatMap(Effect.exit(pull), (exit) => {
      if (Exit.isSuccess(exit)) {
        this.settle(exit.value, undefined)
        return Effect.flatMap(this.waitDemand, () => step)
      }
      if (Pull.isDoneCause(exit.cause)) this.settle(undefined, undefined)
      else this.settle(undefined, { error: failureOf(exit.cause) })
      return Effect.void
    })
    return step
  }

  private readonly waitDemand: Effect.Effect<void> = Effect.callback<void>((resume) => {
    this.demand = resume
  })

  private settle(batch: ReadonlyArray<A> | undefined, failed: { readonly error: unknown } | undefined): void {
    const resolve = this.resolve
    const reject = this.reject
    this.resolve = this.reject = undefined
    if (failed !== undefined) reject?.(failed.error)
    else resolve?.(batch)
  }

  /** The fiber ended before it settled the waiting demand (interrupted, or a defect of its own). */
  private readonly onExit = (exit: Exit.Exit<void, unknown>): void => {
    if (this.resolve === undefined) return
    this.settle(undefined, { error: Exit.isFailure(exit) ? failureOf(exit.cause) : new Error("The stream ended.") })
  }
}
