/**
 * Serves a Web handler (such as the mock) with `Deno.serve`. Import it from Deno only.
 *
 * A `reset` fault errors the response body mid-stream; Deno then aborts the HTTP response, which the client
 * sees as a connection closed before the body ended (Deno gives a handler no way to send a TCP RST).
 *
 * @since 0.1.0
 */
import { handlerOf, runningServer } from "./internal/running.ts"
import type { RunningServer, Servable, ServeOptions } from "./Serve.ts"

export type { RunningServer, Servable, ServeOptions } from "./Serve.ts"

/** The part of `Deno.serve` this module uses, so the package type-checks without Deno's types. */
interface DenoServer {
  readonly addr: { readonly hostname: string; readonly port: number }
  readonly finished: Promise<void>
  shutdown(): Promise<void>
}
interface DenoNamespace {
  serve(
    options: { port: number; hostname: string; signal?: AbortSignal; onListen?: (addr: unknown) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer
}

const deno = (): DenoNamespace => {
  const d = (globalThis as { Deno?: DenoNamespace }).Deno
  if (d === undefined)
    throw new Error("serveDeno runs on Deno only; on Node use serveNode from @friendli-stream/testing/node.")
  return d
}

/**
 * Serves a handler (or the mock) with `Deno.serve`, by default on 127.0.0.1 and a free port.
 *
 * @example
 * const server = await serveDeno(createMockFriendli())
 * await server.close()
 *
 * @since 0.1.0
 */
export const serveDeno = async (target: Servable, options: ServeOptions = {}): Promise<RunningServer> => {
  const hostname = options.hostname ?? "127.0.0.1"
  const abort = new AbortController()
  const listen = { port: options.port ?? 0, hostname, signal: abort.signal, onListen: () => {} }
  const server = deno().serve(listen, handlerOf(target))
  return runningServer(target, hostname, server.addr.port, async () => {
    abort.abort()
    await server.finished
  })
}
