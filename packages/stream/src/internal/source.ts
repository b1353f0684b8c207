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
import type { Decoder } from "./decoder.ts"
import { IdleDeadline, type IdleLimit } from "./idle.ts"
import { BodyPuller } from "./pull.ts"
import type { ByteStream } from "./web.ts"

type BatchPull<A, E> = Pull.Pull<Arr.NonEmptyReadonlyArray<A>, E>

const END = Cause.done()

/**
 * One batch per pull: an empty batch ends the stream, a typed failure fails it, anything else is a defect. With an
 * idle limit, a pull that waits longer fails with its error.
 */
const pullFrom = <A, E>(
  puller: BodyPuller<A>,
  idle: { readonly deadline: IdleDeadline; readonly limit: IdleLimit<E> } | undefined,
): BatchPull<A, E> =>
  Effect.callback<Arr.NonEmptyReadonlyArray<A>, E | Cause.Done>((resume) => {
    let waiting = true
    const settle = (effect: Effect.Effect<Arr.NonEmptyReadonlyArray<A>, E | Cause.Done>): void => {
      if (!waiting) return
      waiting = false
      idle?.deadline.done()
      resume(effect)
    }
    puller.pull({
      batch: (out) => settle(out.length === 0 ? END : Effect.succeed(out as unknown as Arr.NonEmptyReadonlyArray<A>)),
      fail: (e, typed) => settle(typed ? Effect.fail(e as E) : Effect.die(e)),
    })
    if (waiting && idle !== undefined) {
      idle.deadline.wait(() => {
        puller.abandon()
        settle(Effect.fail(idle.limit.onTimeout()))
      })
    }
    return Effect.sync(() => {
      waiting = false
      idle?.deadline.done()
      puller.abandon()
    })
  })

/**
 * A stream of the outputs of a body; ending or interrupting it cancels the body. A failed read fails the stream with
 * `SseError` `ReadFailed`, or with what `readError` makes of it; a pull that waits longer than `idle.ms` fails with
 * `idle.onTimeout()` (and cancels the body).
 */
export const fromBody = <A, E = never>(
  body: ByteStream,
  make: () => Decoder<A>,
  readError?: (cause: unknown, bytesRead: number) => E,
  idle?: IdleLimit<E>,
): Stream.Stream<A, DecodeError | E> =>
  Stream.fromChannel(
    Channel.fromTransform((_, scope) =>
      Effect.suspend(() => {
        const puller = new BodyPuller(body, make(), readError)
        const deadline = idle === undefined ? undefined : new IdleDeadline(idle.ms)
        return Effect.as(
          Scope.addFinalizer(
            scope,
            Effect.promise(() => {
              deadline?.close()
              return puller.cancel()
            }),
          ),
          pullFrom<A, DecodeError | E>(
            puller,
            deadline === undefined ? undefined : { deadline, limit: idle as IdleLimit<E> },
          ),
        )
      }),
    ),
  )
