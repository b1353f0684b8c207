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

/** Makes a WHATWG `TextDecoder` for UTF-8 (every supported runtime has one). */
export const makeTextDecoder = (): TextDecoderLike =>
  new (globalThis as unknown as { TextDecoder: TextDecoderConstructor }).TextDecoder("utf-8")

const scheduler = globalThis as unknown as { queueMicrotask(callback: () => void): void }

/** Queues a microtask (HTML "queue a microtask"; every supported runtime has `queueMicrotask`). */
export const queueMicrotask = (callback: () => void): void => scheduler.queueMicrotask(callback)
