/**
 * The Effect driver for a `ReadableStream` body: one pull of the stream is one batch of the shared {@link BodyPuller},
 * so the per-step cost of Effect is paid per batch, not per network read.
 */
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Channel from "effect/Channel"
import * as Effect from "effect/Effect"
import type * as Pull from "effect/Pull"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { DecodeError } from "../StreamError.ts"
import type { ByteStream } from "./byteStream.ts"
import type { Decoder } from "./decoder.ts"
import { IdleDeadline, type IdleLimit } from "./idle.ts"
import { type BatchWaiter, BodyPuller } from "./pull.ts"

export type BatchPull<A, E> = Pull.Pull<Arr.NonEmptyReadonlyArray<A>, E>

const END = Cause.done()

/**
 * The pull of one body: one batch per pull; an empty batch ends the stream, a typed failure fails it, anything else
 * is a defect. With an idle limit, a pull that waits longer fails with its error. One object per body serves every
 * pull (its callbacks are its own fields), so a pull allocates nothing of ours.
 */
class BodyPull<A, E> implements BatchWaiter<A> {
  private resume: ((effect: Effect.Effect<Arr.NonEmptyReadonlyArray<A>, E | Cause.Done>) => void) | undefined
  private readonly puller: BodyPuller<A>
  private readonly deadline: IdleDeadline | undefined
  private readonly onTimeout: (() => E) | undefined
  readonly pull: BatchPull<A, E>

  constructor(puller: BodyPuller<A>, idle: IdleLimit<E> | undefined) {
    this.puller = puller
    this.deadline = idle === undefined ? undefined : new IdleDeadline(idle.ms)
    this.onTimeout = idle?.onTimeout
    this.pull = Effect.callback(this.register)
  }

  /** Stops the idle timer (the body is cancelled by its scope). */
  close(): void {
    this.deadline?.close()
  }

  private readonly register = (
    resume: (effect: Effect.Effect<Arr.NonEmptyReadonlyArray<A>, E | Cause.Done>) => void,
  ): Effect.Effect<void> => {
    this.resume = resume
    this.puller.pull(this)
    if (this.resume !== undefined) this.deadline?.wait(this.expire)
    return this.abandon
  }

  private settle(effect: Effect.Effect<Arr.NonEmptyReadonlyArray<A>, E | Cause.Done>): void {
    const resume = this.resume
    if (resume === undefined) return
    this.resume = undefined
    this.deadline?.done()
    resume(effect)
  }

  readonly batch = (out: Array<A>): void =>
    this.settle(out.length === 0 ? END : Effect.succeed(out as unknown as Arr.NonEmptyReadonlyArray<A>))

  readonly fail = (error: unknown, typed: boolean): void =>
    this.settle(typed ? Effect.fail(error as E) : Effect.die(error))

  private readonly expire = (): void => {
    this.puller.abandon()
    this.settle(Effect.fail((this.onTimeout as () => E)()))
  }

  /** The waiting fiber was interrupted: what is decoded meanwhile stays for the next pull. */
  private readonly abandon: Effect.Effect<void> = Effect.sync(() => {
    this.resume = undefined
    this.deadline?.done()
    this.puller.abandon()
  })
}

/** What reads a body in a scope: its pull, one batch per pull; closing the scope cancels the body. */
export type OpenBody<A, E> = (scope: Scope.Scope) => Effect.Effect<BatchPull<A, E>>

/**
 * Opens a body for pulling in batches. A failed read fails with `SseError` `ReadFailed`, or with what `readError`
 * makes of it; a pull that waits longer than `idle.ms` fails with `idle.onTimeout()` (and the scope's end cancels
 * the body).
 */
export const openBody =
  <A, E = never>(
    body: ByteStream,
    make: () => Decoder<A>,
    readError?: (cause: unknown, bytesRead: number) => E,
    idle?: IdleLimit<E>,
  ): OpenBody<A, DecodeError | E> =>
  (scope) =>
    Effect.suspend(() => {
      const puller = new BodyPuller(body, make(), readError)
      const reader = new BodyPull<A, DecodeError | E>(puller, idle)
      return Effect.as(
        Scope.addFinalizer(
          scope,
          Effect.promise(() => {
            reader.close()
            return puller.cancel()
          }),
        ),
        reader.pull,
      )
    })

/** A stream of the outputs of a body (see {@link openBody}); ending or interrupting it cancels the body. */
export const fromBody = <A, E = never>(
  body: ByteStream,
  make: () => Decoder<A>,
  readError?: (cause: unknown, bytesRead: number) => E,
  idle?: IdleLimit<E>,
): Stream.Stream<A, DecodeError | E> => {
  const open = openBody(body, make, readError, idle)
  return Stream.fromChannel(Channel.fromTransform((_, scope) => open(scope)))
}
