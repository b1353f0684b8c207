/**
 * The decode functions of one streamed API, made from its entry in the table (`streamApis.ts`): the dual
 * `decode`, `fromReadableStream` and the `for await` facade, each typed by `validation` (strict items, compatible
 * items, or either when the options are only known at run time).
 */
import type * as Stream from "effect/Stream"
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "../DecodeOptions.ts"
import type { DecodeError } from "../StreamError.ts"
import type { ByteStream } from "./byteStream.ts"
import { iterateBody } from "./iterate.ts"
import { bodyStream, dualDecode } from "./jsonDecode.ts"
import { codecOf, type StreamApi } from "./streamApis.ts"

/** A dual `decode`: `decode(bytes, options?)` or `bytes.pipe(decode(options?))`. */
export interface Decode<S, C> {
  (options?: StrictOptions): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<S, E | DecodeError, R>
  (options: CompatibleOptions): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<C, E | DecodeError, R>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>, options?: StrictOptions): Stream.Stream<S, E | DecodeError, R>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>, options: CompatibleOptions): Stream.Stream<C, E | DecodeError, R>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>, options: DecodeOptions): Stream.Stream<S | C, E | DecodeError, R>
  (options: DecodeOptions): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<S | C, E | DecodeError, R>
}

/** `fromReadableStream`: a `ReadableStream` body decoded into items; ending the stream cancels the body. */
export interface FromReadableStream<S, C> {
  (body: ByteStream, options?: StrictOptions): Stream.Stream<S, DecodeError>
  (body: ByteStream, options: CompatibleOptions): Stream.Stream<C, DecodeError>
  (body: ByteStream, options: DecodeOptions): Stream.Stream<S | C, DecodeError>
}

/** A `for await` facade: a `ReadableStream` body decoded into items; breaking out of the loop cancels the body. */
export interface Facade<S, C> {
  (body: ByteStream, options?: StrictOptions): AsyncIterable<S>
  (body: ByteStream, options: CompatibleOptions): AsyncIterable<C>
  (body: ByteStream, options?: DecodeOptions): AsyncIterable<S | C>
}

// One implementation serves every overload: the overloads only narrow the item type by `validation`, which
// `codecOf` chooses at run time. TypeScript cannot check an overloaded type against one implementation, hence
// the one cast of each builder.

/** The dual `decode` of an API. */
export const decodeOf = <S, C, F>(api: StreamApi<S, C, F>): Decode<S, C> =>
  dualDecode((options) => codecOf(api, options), api.end) as Decode<S, C>

/** The `fromReadableStream` of an API. */
export const fromReadableStreamOf = <S, C, F>(api: StreamApi<S, C, F>): FromReadableStream<S, C> =>
  ((body: ByteStream, options?: DecodeOptions) =>
    bodyStream(body, (o) => codecOf(api, o), options, api.end)) as FromReadableStream<S, C>

/** The `for await` facade of an API. */
export const facadeOf = <S, C, F>(api: StreamApi<S, C, F>): Facade<S, C> =>
  ((body: ByteStream, options?: DecodeOptions) => iterateBody(body, codecOf(api, options), options, api.end)) as Facade<
    S,
    C
  >
