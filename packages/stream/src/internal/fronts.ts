/** Glue shared by the public modules: decoders from codecs, and the data-first / data-last `decode` shape. */
import * as Stream from "effect/Stream"
import type { DecodeError } from "../StreamError.ts"
import { decodeStream } from "./channel.ts"
import type { Codec } from "./codec.ts"
import { Decoder } from "./decoder.ts"
import { JsonStage } from "./json.ts"
import { type DecodeOptions, resolveOptions } from "./options.ts"
import { fromBody } from "./source.ts"
import type { ByteStream } from "./web.ts"

/** A decoder factory for JSON events decoded by `codec`. */
export const jsonDecoder =
  <A>(codec: Codec<A>, options: DecodeOptions | undefined): (() => Decoder<A>) =>
  () => {
    const resolved = resolveOptions(options)
    return new Decoder(new JsonStage(codec), resolved)
  }

/** Whether the first argument of a dual `decode` is the stream. */
export const isStream = (u: unknown): u is Stream.Stream<unknown, unknown, unknown> =>
  typeof u === "object" && u !== null && Stream.StreamTypeId in u

/** A stream transform decoding JSON events with the codec chosen by the options. */
export const jsonTransform =
  <A>(choose: (options: DecodeOptions | undefined) => Codec<A>, options: DecodeOptions | undefined) =>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>): Stream.Stream<A, E | DecodeError, R> => {
    resolveOptions(options)
    return decodeStream(jsonDecoder(choose(options), options))(self)
  }

/** The dual `decode`: `decode(stream, options?)` or `stream.pipe(decode(options?))`. */
export const dualDecode =
  <A>(choose: (options: DecodeOptions | undefined) => Codec<A>) =>
  (...args: ReadonlyArray<unknown>): unknown =>
    isStream(args[0])
      ? jsonTransform(
          choose,
          args[1] as DecodeOptions | undefined,
        )(args[0] as Stream.Stream<Uint8Array, unknown, unknown>)
      : jsonTransform(choose, args[0] as DecodeOptions | undefined)

/** A stream of typed chunks read straight from a `ReadableStream` body. */
export const bodyStream = <A>(
  body: ByteStream,
  choose: (options: DecodeOptions | undefined) => Codec<A>,
  options: DecodeOptions | undefined,
): Stream.Stream<A, DecodeError> => {
  resolveOptions(options)
  return fromBody(body, jsonDecoder(choose(options), options))
}
