/** Decoders from codecs: a JSON event decoder, the stream transform, the body stream and the client's body pull. */
import { dual } from "effect/Function"
import * as Stream from "effect/Stream"
import type { DecodeError } from "../StreamError.ts"
import type { ByteStream } from "./byteStream.ts"
import { decodeStream } from "./channel.ts"
import { type Codec, forOneStream } from "./codec.ts"
import { Decoder } from "./decoder.ts"
import type { IdleLimit } from "./idle.ts"
import { type EndTracker, JsonStage } from "./json.ts"
import { type DecodeOptions, resolveOptions } from "./options.ts"
import { fromBody, type OpenBody, openBody } from "./source.ts"

/** A fresh end tracker per stream, for a protocol that ends with its own terminal event instead of `[DONE]`. */
export type MakeEnd<A> = () => EndTracker<A>

/** A decoder factory for JSON events decoded by `codec` (a fresh one per decoder, when it keeps state). */
export const jsonDecoder =
  <A>(codec: Codec<A>, options: DecodeOptions | undefined, end?: MakeEnd<A>): (() => Decoder<A>) =>
  () => {
    const resolved = resolveOptions(options)
    return new Decoder(new JsonStage(forOneStream(codec), end?.()), resolved)
  }

/** A stream transform decoding JSON events with the codec chosen by the options. */
export const jsonTransform = <A, E, R, EI = never>(
  self: Stream.Stream<Uint8Array, E, R>,
  choose: (options: DecodeOptions | undefined) => Codec<A>,
  options: DecodeOptions | undefined,
  idle?: IdleLimit<EI>,
  end?: MakeEnd<A>,
): Stream.Stream<A, E | EI | DecodeError, R> => {
  resolveOptions(options)
  return decodeStream(jsonDecoder(choose(options), options, end), idle)(self)
}

/** The dual `decode`: `decode(stream, options?)` or `stream.pipe(decode(options?))`. */
export const dualDecode = <A>(choose: (options: DecodeOptions | undefined) => Codec<A>, end?: MakeEnd<A>) =>
  dual(
    (args) => Stream.isStream(args[0]),
    <E, R>(self: Stream.Stream<Uint8Array, E, R>, options?: DecodeOptions) =>
      jsonTransform(self, choose, options, undefined, end),
  )

/** A stream of typed chunks read straight from a `ReadableStream` body. */
export const bodyStream = <A>(
  body: ByteStream,
  choose: (options: DecodeOptions | undefined) => Codec<A>,
  options: DecodeOptions | undefined,
  end?: MakeEnd<A>,
): Stream.Stream<A, DecodeError> => {
  resolveOptions(options)
  return fromBody(body, jsonDecoder(choose(options), options, end))
}

/**
 * A body of typed chunks opened for pulling (the client's fast path): `readError` types a failed read, `idle` limits
 * how long a pull may wait.
 */
export const bodyPull = <A, E>(
  body: ByteStream,
  choose: (options: DecodeOptions | undefined) => Codec<A>,
  options: DecodeOptions | undefined,
  readError: (cause: unknown, bytesRead: number) => E,
  idle: IdleLimit<E> | undefined,
  end?: MakeEnd<A>,
): OpenBody<A, DecodeError | E> => openBody(body, jsonDecoder(choose(options), options, end), readError, idle)
