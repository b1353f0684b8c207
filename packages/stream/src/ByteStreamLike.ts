/**
 * The byte stream every decoder reads: a `ReadableStream<Uint8Array>` as each runtime has one, typed structurally so
 * that neither the sources nor the shipped `.d.ts` need the DOM library or `@types/node`.
 *
 * @since 0.3.0
 */
import type { ByteStream } from "./internal/byteStream.ts"

/**
 * A `ReadableStream<Uint8Array>` as every runtime has one (e.g. `Response.body`), typed structurally.
 *
 * @example
 * import type { ByteStreamLike } from "@friendli-stream/stream"
 *
 * const body: ByteStreamLike | null = (await fetch("https://example.com")).body
 *
 * @since 0.3.0
 */
export type ByteStreamLike = ByteStream
