/**
 * The Effect driver for a `ReadableStream` body: the shared pull loop ({@link BodyPuller}) hands over one batch per
 * Effect step, so the per-step cost is paid per batch of available bytes, not per network read.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { type DecodeError, StreamError } from "../StreamError.ts"
import type { Decoder } from "./decoder.ts"
import { BodyPuller } from "./pull.ts"
import type { ByteStream } from "./web.ts"

type Pull<A> = Effect.Effect<Chunk.Chunk<A>, Option.Option<DecodeError>>

const END = Effect.fail(Option.none())

/** One batch per step: `None` ends the stream, a `StreamError` fails it, anything else is a defect. */
const pullFrom = <A>(puller: BodyPuller<A>): Pull<A> =>
  Effect.async<Chunk.Chunk<A>, Option.Option<DecodeError>>((resume) => {
    puller.pull({
      batch: (out) => resume(out.length === 0 ? END : Effect.succeed(Chunk.unsafeFromArray(out))),
      fail: (e) => resume(e instanceof StreamError ? Effect.fail(Option.some(e as DecodeError)) : Effect.die(e)),
    })
    return Effect.sync(() => puller.abandon())
  })

/** A stream of the outputs of a body; ending or interrupting it cancels the body. */
export const fromBody = <A>(body: ByteStream, make: () => Decoder<A>): Stream.Stream<A, DecodeError> =>
  Stream.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => new BodyPuller(body, make())),
        (puller) => Effect.promise(() => puller.cancel()),
      ),
      (puller) => Stream.repeatEffectChunkOption(pullFrom(puller)),
    ),
  )
