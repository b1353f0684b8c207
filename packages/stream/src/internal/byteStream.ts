/**
 * The few Web-standard types the decoder touches, declared structurally so that neither the sources nor the shipped
 * `.d.ts` depend on the DOM library or on `@types/node`: every runtime's `ReadableStream<Uint8Array>` fits them.
 */

/** One result of `ReadableStreamDefaultReader.read()`. */
export type ReadResult =
  | { readonly done: false; readonly value: Uint8Array }
  | { readonly done: true; readonly value?: Uint8Array | undefined }

/** The reader of a byte stream (WHATWG Streams, `ReadableStreamDefaultReader<Uint8Array>`). */
export interface ByteReader {
  read(): Promise<ReadResult>
  cancel(reason?: unknown): Promise<void>
  releaseLock(): void
}

/** A byte stream (WHATWG Streams, `ReadableStream<Uint8Array>`), e.g. `Response.body`. */
export interface ByteStream {
  getReader(): ByteReader
}

interface TextDecoderLike {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string
}

type TextDecoderConstructor = new (
  label?: string,
  options?: { fatal?: boolean; ignoreBOM?: boolean },
) => TextDecoderLike

/**
 * Makes a WHATWG `TextDecoder` for UTF-8 (every supported runtime has one) that keeps a BOM as U+FEFF: the caller
 * drops the leading one itself (see `utf8.ts` for why).
 */
export const makeTextDecoder = (): TextDecoderLike =>
  new (globalThis as unknown as { TextDecoder: TextDecoderConstructor }).TextDecoder("utf-8", { ignoreBOM: true })

const timers = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  readonly performance: { now(): number }
}

/** Calls `callback` once after `ms` milliseconds (HTML timers); returns the handle for {@link clearTimer}. */
export const setTimer = (callback: () => void, ms: number): unknown => timers.setTimeout(callback, ms)

/** Cancels a timer of {@link setTimer}. */
export const clearTimer = (handle: unknown): void => timers.clearTimeout(handle)

/** A monotonic time in milliseconds (`performance.now()`). */
export const now = (): number => timers.performance.now()
