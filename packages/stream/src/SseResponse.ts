/**
 * Serving server-sent events through proxies: the response headers that keep nginx, Cloudflare and other proxies
 * from buffering or rewriting an event stream, and the keep-alive comment that keeps an idle stream's connection
 * open. `toResponse()` of the client and the resumable handler's answers use both.
 *
 * @since 0.3.0
 */
import type { ByteStream, ReadResult } from "./internal/byteStream.ts"
import { clearTimer, setTimer } from "./internal/byteStream.ts"

/**
 * The headers of an event-stream response: `Content-Type: text/event-stream; charset=utf-8`,
 * `Cache-Control: no-cache, no-transform` (no cache, no compression by a proxy) and `X-Accel-Buffering: no` (nginx
 * passes every write on at once).
 *
 * @since 0.3.0
 */
export const HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
}

/**
 * The keep-alive: an SSE comment, which every event-stream reader ignores (WHATWG: a line starting with `:`).
 *
 * @since 0.3.0
 */
export const KEEP_ALIVE = ": keep-alive\n\n"

/**
 * How long a stream may send nothing before a keep-alive goes out, by default: 15 s, well inside the idle timeouts
 * of nginx (60 s) and Cloudflare (100 s).
 *
 * @since 0.3.0
 */
export const DEFAULT_KEEP_ALIVE_MS = 15_000

interface Controller {
  enqueue(chunk: Uint8Array): void
  close(): void
}

interface ReadableStreamConstructor {
  new (
    source: { pull(controller: Controller): Promise<void>; cancel(reason: unknown): Promise<void> },
    strategy: { readonly highWaterMark: number },
  ): ByteStream
}

// ASCII: one byte per character
const keepAliveBytes = Uint8Array.from(KEEP_ALIVE, (c) => c.charCodeAt(0))

/**
 * `body` with a keep-alive comment (`: keep-alive\n\n`) written whenever no bytes went out for `keepAliveMs` while
 * its reader waits; the bytes of `body` pass on unchanged, as they come. Cancelling the result cancels `body`.
 * `keepAliveMs` of 0 or less (or not finite) gives `body` itself.
 *
 * @example
 * new Response(SseResponse.withKeepAlive(events, 15_000), { headers: SseResponse.HEADERS })
 *
 * @since 0.3.0
 */
export const withKeepAlive = <S extends ByteStream>(body: S, keepAliveMs: number = DEFAULT_KEEP_ALIVE_MS): S => {
  if (!(keepAliveMs > 0 && Number.isFinite(keepAliveMs))) return body
  const reader = body.getReader()
  let pending: Promise<ReadResult> | undefined
  const Readable = (globalThis as unknown as { ReadableStream: ReadableStreamConstructor }).ReadableStream
  return new Readable(
    {
      pull: async (controller) => {
        pending ??= reader.read()
        const read = pending
        let timer: unknown
        const idle = new Promise<"idle">((resolve) => {
          timer = setTimer(() => resolve("idle"), keepAliveMs)
        })
        const result = await Promise.race([read, idle]).finally(() => clearTimer(timer))
        if (result === "idle") {
          // the read stays pending: the next pull waits on it again
          controller.enqueue(keepAliveBytes.slice())
          return
        }
        pending = undefined
        if (result.done) controller.close()
        else controller.enqueue(result.value)
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  ) as unknown as S
}
