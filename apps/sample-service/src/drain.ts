/**
 * Draining an instance before it stops (a rolling deploy's `SIGTERM`), as one Web-standard layer around the
 * service's handler: once draining, a request that would open a stream is a `503` with `Retry-After` (the client or
 * the load balancer goes to another instance), the streams in flight go on; the runtime's signal handler waits for
 * them within a grace period, then ends the rest (`producer_lost`, resumable on another instance with Redis).
 */

import { jsonError } from "./handler.ts"
import { type OpenStreams, opensStream } from "./limits.ts"

/**
 * The default grace period of a drain: 30 s.
 *
 * @since 0.3.0
 */
export const DEFAULT_DRAIN_GRACE_MS = 30_000

/**
 * Whether an instance drains, and its layer.
 *
 * @since 0.3.0
 */
export class Drain {
  private draining = false

  /** Whether the instance is draining. */
  get active(): boolean {
    return this.draining
  }

  /** Stops taking new streams. */
  start(): void {
    this.draining = true
  }

  /**
   * `handler`, which answers a request that opens a stream with a `503` (`Retry-After: 1`) once the instance drains.
   */
  wrap(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
    return async (request) => {
      if (this.draining && opensStream(request)) {
        return jsonError(
          503,
          "This instance is shutting down and takes no new streams: try again, another instance will answer.",
          "server_error",
          { "retry-after": "1", connection: "close" },
        )
      }
      return await handler(request)
    }
  }
}

/**
 * Waits until `open` has no stream, or `graceMs` passed; whether it emptied in time.
 *
 * @since 0.3.0
 */
export const waitForStreams = async (open: OpenStreams, graceMs: number): Promise<boolean> => {
  let timer!: ReturnType<typeof setTimeout>
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs)
  })
  try {
    return await Promise.race([open.idle().then(() => true as const), late])
  } finally {
    clearTimeout(timer)
  }
}
