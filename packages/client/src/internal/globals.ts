/**
 * The Web-standard globals the client touches, typed structurally (the package's sources use neither the DOM
 * library nor `@types/node`), and resolved to the real global types where the consumer's program has them.
 */
import type { ByteStream } from "@friendli-stream/stream/internal"

/** An `AbortSignal`, as every runtime has one. */
export interface AbortSignalLike {
  readonly aborted: boolean
  readonly reason?: unknown
  addEventListener(type: "abort", listener: () => void, options?: { readonly once?: boolean }): void
  removeEventListener(type: "abort", listener: () => void): void
}

interface AbortControllerLike {
  readonly signal: AbortSignalLike
  abort(reason?: unknown): void
}

/** `ReadableStream<Uint8Array>` as the consumer's program types it (DOM or `@types/node`), else structurally. */
export type WebReadableStream = typeof globalThis extends { Response: { prototype: { body: infer B } } }
  ? NonNullable<B>
  : ByteStream

/** `Response` as the consumer's program types it (DOM, `@types/node`, Deno, Bun, workers-types), else structurally. */
export type WebResponse = typeof globalThis extends { Response: { prototype: infer R } } ? R : ResponseLike

/** The part of a `Response` every runtime has. */
export interface ResponseLike {
  readonly status: number
  readonly headers: { get(name: string): string | null }
  readonly body: ByteStream | null
  text(): Promise<string>
  json(): Promise<unknown>
}

/** Headers as `new Headers(init)` takes them: a `Headers`, a record, or name-value pairs. */
export type HeadersInitLike =
  | Readonly<Record<string, string>>
  | ReadonlyArray<readonly [string, string]>
  | { forEach(callback: (value: string, name: string) => void): void }

interface HeadersLike {
  has(name: string): boolean
  set(name: string, value: string): void
}

interface ReadableStreamController {
  enqueue(chunk: Uint8Array): void
  close(): void
  error(reason: unknown): void
}

interface UnderlyingSource {
  pull(controller: ReadableStreamController): Promise<void>
  cancel(reason: unknown): Promise<void>
}

interface Globals {
  readonly AbortController: new () => AbortControllerLike
  readonly ReadableStream: new (source: UnderlyingSource, strategy: { readonly highWaterMark: number }) => unknown
  readonly TextEncoder: new () => { encode(text: string): Uint8Array }
  readonly Headers: new (init?: HeadersInitLike) => HeadersLike
  readonly Response: new (body: string | WebReadableStream, init: { status: number; headers: HeadersLike }) => unknown
  readonly DOMException?: new (message: string, name: string) => Error
}

const g = globalThis as unknown as Globals

export const makeAbortController = (): AbortControllerLike => new g.AbortController()

/** A pull-based byte stream (high-water mark 0: nothing is produced before it is read). */
export const makeReadableStream = (source: UnderlyingSource): WebReadableStream =>
  new g.ReadableStream(source, { highWaterMark: 0 }) as WebReadableStream

/**
 * A `Response` with `status`: the caller's `headers` (e.g. CORS), then `set` over them and `defaults` under them.
 */
export const makeResponse = (
  body: string | WebReadableStream,
  status: number,
  headers: HeadersInitLike | undefined,
  set: Readonly<Record<string, string>>,
  defaults: Readonly<Record<string, string>> = {},
): WebResponse => {
  const all = new g.Headers(headers)
  for (const [name, value] of Object.entries(set)) all.set(name, value)
  for (const [name, value] of Object.entries(defaults)) if (!all.has(name)) all.set(name, value)
  return new g.Response(body, { status, headers: all }) as WebResponse
}

const encoder = new g.TextEncoder()

/** UTF-8 bytes of a string. */
export const encodeText = (text: string): Uint8Array => encoder.encode(text)

/** An `AbortError` (a `DOMException` where the runtime has one), for aborts without a reason. */
export const abortError = (message: string): Error => {
  if (g.DOMException !== undefined) return new g.DOMException(message, "AbortError")
  const error = new Error(message)
  error.name = "AbortError"
  return error
}
