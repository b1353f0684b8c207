/**
 * Typed JSON events from any OpenAI-compatible server: bring a guard and an Effect Schema.
 *
 * @since 0.1.0
 */
import type * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import type { ByteStreamLike } from "./ByteStreamLike.ts"
import type { DecodeOptions } from "./DecodeOptions.ts"
import { guardedCodec } from "./internal/codec.ts"
import { bodyStream, jsonTransform } from "./internal/jsonDecode.ts"
import type { DecodeError } from "./StreamError.ts"

/**
 * How to check and decode one event's JSON.
 *
 * - `guard`: the fast path; `true` must mean `schema` decodes the value (e.g. a generated `isX`).
 * - `schema`: explains a value the guard refused (and decodes it when the guard was stricter than the schema).
 * - `normalize`: turns a value the guard accepted into the schema's Type; default: decode with the schema.
 *
 * @since 0.1.0
 */
export interface JsonEventSpec<A, I> {
  /** The fast path: `true` must mean `schema` decodes the value. @since 0.1.0 */
  readonly guard: (u: unknown) => u is I
  /** Explains a refused value, and decodes one the guard was stricter about. @since 0.1.0 */
  readonly schema: Schema.Codec<A, I>
  /** Turns an accepted value into the schema's Type; default: decode with the schema. @since 0.1.0 */
  readonly normalize?: ((i: I) => A) | undefined
}

/**
 * Decodes a byte stream of JSON server-sent events with your own guard and schema (given as a spec, or as
 * `(guard, schema, options?)`): `[DONE]`, in-stream errors, truncation and limits behave as in
 * `CompletionStream.decode` (`validation` is ignored: the spec decides).
 *
 * @example
 * import { Schema, Stream } from "effect"
 * import { decodeJsonEvents } from "@friendli-stream/stream"
 *
 * const Tick = Schema.Struct({ n: Schema.Number })
 * const isTick = Schema.is(Tick)
 * const ticks = (bytes: Stream.Stream<Uint8Array>) =>
 *   bytes.pipe(decodeJsonEvents({ guard: isTick, schema: Tick, normalize: (t) => t }))
 *
 * @since 0.1.0
 */
export const decodeJsonEvents: {
  <A, I>(
    spec: JsonEventSpec<A, I>,
    options?: DecodeOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<A, E | DecodeError, R>
  <A, I>(
    guard: (u: unknown) => u is I,
    schema: Schema.Codec<A, I>,
    options?: DecodeOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<A, E | DecodeError, R>
} = <A, I>(
  ...args:
    | [spec: JsonEventSpec<A, I>, options?: DecodeOptions | undefined]
    | [guard: (u: unknown) => u is I, schema: Schema.Codec<A, I>, options?: DecodeOptions | undefined]
) => {
  const [spec, options] =
    typeof args[0] === "function"
      ? [{ guard: args[0], schema: args[1] as Schema.Codec<A, I> }, args[2] as DecodeOptions | undefined]
      : [args[0], args[1] as DecodeOptions | undefined]
  const codec = guardedCodec(spec)
  return <E, R>(self: Stream.Stream<Uint8Array, E, R>): Stream.Stream<A, E | DecodeError, R> =>
    jsonTransform(self, () => codec, options)
}

/**
 * Like {@link decodeJsonEvents}, reading straight from a `ReadableStream` body.
 *
 * @since 0.1.0
 */
export const fromReadableStream = <A, I>(
  body: ByteStreamLike,
  spec: JsonEventSpec<A, I>,
  options?: DecodeOptions,
): Stream.Stream<A, DecodeError> => {
  const codec = guardedCodec(spec)
  return bodyStream(body, () => codec, options)
}
