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
import { type DecodeError, StreamError } from "../StreamError.ts"
import type { Decoder } from "./decoder.ts"
import { BodyPuller } from "./pull.ts"
import type { ByteStream } from "./web.ts"

type BatchPull<A> = Pull.Pull<Arr.NonEmptyReadonlyArray<A>, DecodeError>

const END = Cause.done()

/** One batch per pull: an empty batch ends the stream, a `StreamError` fails it, anything else is a defect. */
const pullFrom = <A>(puller: BodyPuller<A>): BatchPull<A> =>
  Effect.callback<Arr.NonEmptyReadonlyArray<A>, DecodeError | Cause.Done>((resume) => {
    puller.pull({
      batch: (out) => resume(out.length === 0 ? END : Effect.succeed(out as unknown as Arr.NonEmptyReadonlyArray<A>)),
      fail: (e) => resume(e instanceof StreamError ? Effect.fail(e as DecodeError) : Effect.die(e)),
    })
    return Effect.sync(() => puller.abandon())
  })

/** A stream of the outputs of a body; ending or interrupting it cancels the body. */
export const fromBody = <A>(body: ByteStream, make: () => Decoder<A>): Stream.Stream<A, DecodeError> =>
  Stream.fromChannel(
    Channel.fromTransform((_, scope) =>
      Effect.suspend(() => {
        const puller = new BodyPuller(body, make())
        return Effect.as(
          Scope.addFinalizer(
            scope,
            Effect.promise(() => puller.cancel()),
          ),
          pullFrom(puller),
        )
      }),
    ),
  )
