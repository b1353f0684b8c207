/**
 * The service's bounds on what it takes in, as one Web-standard layer around its handler: the request body's size
 * (`413`) and the time it may take to arrive (`408`), and the streams open at once on the instance (`503` with
 * `Retry-After`). Each answer is a JSON error saying which bound was crossed and what to do.
 */

import { jsonError } from "./handler.ts"

/**
 * The bounds of a service; every field has a default.
 *
 * @since 0.3.0
 */
export interface Limits {
  /** The largest request body, in bytes (default 1 MiB); a larger one is a `413`. */
  readonly maxBodyBytes?: number | undefined
  /** How long a request body may take to arrive, in milliseconds (default 10 000); then a `408`. */
  readonly bodyTimeoutMs?: number | undefined
  /** At most this many streams open at once on the instance (default: no bound); one more is a `503`. */
  readonly maxStreams?: number | undefined
}

/**
 * The default largest request body: 1 MiB.
 *
 * @since 0.3.0
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * The default time a request body may take to arrive: 10 s.
 *
 * @since 0.3.0
 */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000

const tooLarge = (max: number) =>
  jsonError(413, `The request body is larger than ${max} bytes (MAX_BODY_BYTES): send a shorter prompt.`)

/**
 * The request with its body read within the bounds (so that whatever reads it next gets it whole at once), or the
 * JSON error to answer instead: `413` for a `Content-Length` over `maxBodyBytes` (at once, unread) or a body that
 * grows past it (reading stops there), `408` for a body not complete within `bodyTimeoutMs`. A request without a
 * body is given back as it is.
 *
 * @since 0.3.0
 */
export const readBounded = async (request: Request, limits: Limits = {}): Promise<Request | Response> => {
  if (request.body === null) return request
  const max = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const timeoutMs = limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS
  const declared = Number(request.headers.get("content-length") ?? Number.NaN)
  if (declared > max) {
    await request.body.cancel().catch(() => {})
    return tooLarge(max)
  }
  const reader = request.body.getReader()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    reader.cancel().catch(() => {})
  }, timeoutMs)
  const chunks: Array<Uint8Array> = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (timedOut) {
        return jsonError(
          408,
          `The request body did not arrive within ${timeoutMs} ms (BODY_TIMEOUT_MS): send it whole, at once.`,
          "invalid_request_error",
          { connection: "close" },
        )
      }
      if (done) break
      size += value.byteLength
      if (size > max) {
        await reader.cancel().catch(() => {})
        return tooLarge(max)
      }
      chunks.push(value)
    }
  } catch {
    return jsonError(400, "The request body could not be read: send it again.")
  } finally {
    clearTimeout(timer)
  }
  const body = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    body.set(chunk, at)
    at += chunk.byteLength
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal })
}

/**
 * The streams open on an instance: counted from the request that opens one until its event stream ends (its end,
 * or its reader going away), for `maxStreams` and for draining.
 *
 * @since 0.3.0
 */
export class OpenStreams {
  private count = 0
  private readonly waiting = new Set<() => void>()

  /** How many streams are open. */
  get size(): number {
    return this.count
  }

  /**
   * Counts a stream from now until `response`'s event stream ends: `response` with its body watched (a response
   * that is not an event stream stops the count at once).
   */
  async track(request: Request, respond: () => Promise<Response>): Promise<Response> {
    this.count++
    let released = false
    const release = () => {
      if (released) return
      released = true
      this.count--
      if (this.count === 0) for (const wake of this.waiting) wake()
    }
    let response: Response
    try {
      response = await respond()
    } catch (error) {
      release()
      throw error
    }
    if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      release()
      return response
    }
    request.signal.addEventListener("abort", release, { once: true })
    const reader = response.body.getReader()
    const body = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          try {
            const { done, value } = await reader.read()
            if (done) {
              release()
              controller.close()
            } else controller.enqueue(value)
          } catch (error) {
            release()
            controller.error(error)
          }
        },
        cancel: async (reason) => {
          release()
          await reader.cancel(reason)
        },
      },
      { highWaterMark: 0 },
    )
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }

  /** Resolves once no stream is open. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const wake = () => {
        this.waiting.delete(wake)
        resolve()
      }
      this.waiting.add(wake)
    })
  }
}

/** Whether a request opens an event stream: `POST`/`GET /v1/stream` (start), `GET /v1/stream/<id>` (resume). */
export const opensStream = (request: Request): boolean => {
  const path = new URL(request.url).pathname
  return (
    (path === "/v1/stream" && (request.method === "POST" || request.method === "GET")) ||
    (path.startsWith("/v1/stream/") && request.method === "GET")
  )
}

/**
 * `handler` within the bounds: a request that opens a stream when `maxStreams` are open is a `503` with
 * `Retry-After: 1`; a body is read within `maxBodyBytes` and `bodyTimeoutMs` before `handler` sees it (`413`, `408`);
 * every stream is counted in `open`.
 *
 * @since 0.3.0
 */
export const withLimits =
  (handler: (request: Request) => Promise<Response>, limits: Limits, open: OpenStreams) =>
  async (request: Request): Promise<Response> => {
    const streaming = opensStream(request)
    if (streaming && limits.maxStreams !== undefined && open.size >= limits.maxStreams) {
      return jsonError(
        503,
        `This instance has ${open.size} streams open, its most (MAX_STREAMS): try again in a moment, or another instance.`,
        "server_error",
        { "retry-after": "1" },
      )
    }
    if (!streaming) {
      const read = await readBounded(request, limits)
      return read instanceof Response ? read : await handler(read)
    }
    return await open.track(request, async () => {
      const read = await readBounded(request, limits)
      return read instanceof Response ? read : await handler(read)
    })
  }
