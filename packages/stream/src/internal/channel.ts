/**
 * The Effect driver for a `Stream<Uint8Array>`: one channel step per upstream chunk (however many reads it holds),
 * each fed through the synchronous core at once, emitting one `Chunk` of outputs per step.
 */
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Stream from "effect/Stream"
import { type DecodeError, StreamError } from "../StreamError.ts"
import type { Decoder } from "./decoder.ts"

type Out<A> = Channel.Channel<Chunk.Chunk<A>, Chunk.Chunk<Uint8Array>, DecodeError, unknown, unknown, unknown>

const emitThen = <A>(out: Array<A>, next: Out<A>): Out<A> =>
  out.length === 0 ? next : Channel.zipRight(Channel.write(Chunk.unsafeFromArray(out)), next)

const failWith = <A>(decoder: Decoder<A>, e: unknown): Out<A> => {
  if (!(e instanceof StreamError)) throw e
  return emitThen(decoder.take(), Channel.fail(e as DecodeError))
}

const decodeChannel = <A>(decoder: Decoder<A>): Out<A> => {
  const loop: Out<A> = Channel.readWithCause({
    onInput: (input: Chunk.Chunk<Uint8Array>) => {
      let more = true
      try {
        for (const bytes of input) {
          if (!decoder.push(bytes)) {
            more = false
            break
          }
        }
      } catch (e) {
        return failWith(decoder, e)
      }
      return emitThen(decoder.take(), more ? loop : Channel.void)
    },
    onFailure: (cause) => emitThen(decoder.take(), Channel.failCause(cause) as unknown as Out<A>),
    onDone: () => {
      try {
        decoder.finish()
      } catch (e) {
        return failWith(decoder, e)
      }
      return emitThen(decoder.take(), Channel.void)
    },
  })
  return loop
}

/** Decodes a byte stream with a fresh decoder per run; upstream failures pass through unchanged. */
export const decodeStream =
  <A>(make: () => Decoder<A>) =>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>): Stream.Stream<A, E | DecodeError, R> =>
    Stream.suspend(() =>
      Stream.pipeThroughChannelOrFail(
        self,
        decodeChannel(make()) as Channel.Channel<
          Chunk.Chunk<A>,
          Chunk.Chunk<Uint8Array>,
          DecodeError,
          E,
          unknown,
          unknown
        >,
      ),
    )
