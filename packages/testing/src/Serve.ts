/**
 * What the runtime servers (`serveNode`, `serveDeno`, `serveBun`) take and return.
 *
 * @since 0.1.0
 */

/**
 * Something with a Web `fetch` handler, or the handler itself. A `close()` method, when present, is called when
 * the server stops (the mock ends its in-flight responses there).
 *
 * @since 0.1.0
 */
export type Servable =
  | ((request: Request) => Promise<Response>)
  | { readonly fetch: (request: Request) => Promise<Response>; readonly close?: () => void }

/**
 * Where to listen.
 *
 * @since 0.1.0
 */
export interface ServeOptions {
  /** Default 0: any free port. */
  readonly port?: number
  /** Default `127.0.0.1`. */
  readonly hostname?: string
}

/**
 * A running server.
 *
 * @since 0.1.0
 */
export interface RunningServer {
  /** The base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string
  readonly port: number
  readonly hostname: string
  /** Stops listening, ends in-flight responses and closes every connection. */
  close(): Promise<void>
}
