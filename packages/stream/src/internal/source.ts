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

/** A stream of the outputs of a body; ending or interrupting it cancels the body. */
export const fromBody = <A>(body: ByteStream, make: () => Decoder<A>): Stream.Stream<A, DecodeError> =>
  Stream.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => new BodyPuller(body, make())),
        (puller) => Effect.promise(() => puller.cancel()),
      ),
      (puller) =>
        Stream.repeatEffectChunkOption(
          Effect.async<Chunk.Chunk<A>, Option.Option<DecodeError>>((resume) => {
            puller.next().then(
              (out) =>
                resume(out.length === 0 ? Effect.fail(Option.none()) : Effect.succeed(Chunk.unsafeFromArray(out))),
              (e: unknown) =>
                resume(e instanceof StreamError ? Effect.fail(Option.some(e as DecodeError)) : Effect.die(e)),
            )
          }),
        ),
    ),
  )
