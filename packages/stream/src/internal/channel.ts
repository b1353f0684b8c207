/**
 * The Effect driver for a `Stream<Uint8Array>`: each upstream pull (however many reads it holds) is fed through the
 * synchronous core at once, and its outputs go downstream as one batch.
 */
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Pull from "effect/Pull"
import * as Stream from "effect/Stream"
import { type DecodeError, StreamError } from "../StreamError.ts"
import { now } from "./byteStream.ts"
import type { Decoder } from "./decoder.ts"
import type { IdleLimit } from "./idle.ts"

type Batch<A> = Arr.NonEmptyReadonlyArray<A>

/**
 * Decodes a byte stream with a fresh decoder per run; upstream failures pass through unchanged, after the outputs.
 * With an idle limit, a pull that waits longer than `idle.ms` for its batch (however many upstream pulls that takes)
 * fails with `idle.onTimeout()`.
 */
export const decodeStream =
  <A, EI = never>(make: () => Decoder<A>, idle?: IdleLimit<EI>) =>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>): Stream.Stream<A, E | EI | DecodeError, R> =>
    Stream.transformPull(self, (pullUpstream) =>
      Effect.sync(() => {
        const decoder = make()
        /** When the waiting pull times out. */
        let deadline = 0
        const timedOut = () => Effect.fail((idle as IdleLimit<EI>).onTimeout())
        const upstream: Pull.Pull<Arr.NonEmptyReadonlyArray<Uint8Array>, E | EI> = idle === undefined
          ? pullUpstream
          : Effect.suspend(() => {
              const left = deadline - now()
              // The timeout's error is made when the pull times out, not per pull.
              return left <= 0
                ? Effect.fail(idle.onTimeout())
                : Effect.timeoutOrElse(pullUpstream, { duration: Duration.millis(left), orElse: timedOut })
            })
        /** What ends the stream once the outputs before it are out: a failure, or `undefined` for the end. */
        let end: Cause.Cause<E | EI | DecodeError> | undefined
        let ended = false

        const stop = (e: unknown): void => {
          if (!(e instanceof StreamError)) throw e
          ended = true
          end = Cause.fail(e as DecodeError)
        }

        const emit = (): Pull.Pull<Batch<A>, E | EI | DecodeError> => {
          const out = decoder.take()
          if (out.length > 0) return Effect.succeed(out as unknown as Batch<A>)
          if (!ended) return next
          if (end === undefined) return Cause.done()
          const cause = end
          end = undefined
          return Effect.failCause(cause)
        }

        const next: Pull.Pull<Batch<A>, E | EI | DecodeError> = Effect.matchCauseEffect(upstream, {
          onSuccess: (input) => {
            try {
              for (const bytes of input) {
                if (!decoder.push(bytes)) {
                  ended = true
                  break
                }
              }
            } catch (e) {
              stop(e)
            }
            return emit()
          },
          onFailure: (cause) => {
            ended = true
            if (Pull.isDoneCause(cause)) {
              try {
                decoder.finish()
              } catch (e) {
                stop(e)
              }
            } else {
              end = cause as Cause.Cause<E | EI>
            }
            return emit()
          },
        })
        return idle === undefined
          ? Effect.suspend(emit)
          : Effect.suspend(() => {
              deadline = now() + idle.ms
              return emit()
            })
      }),
    )
