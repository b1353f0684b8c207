/**
 * Serves a Web handler (such as the mock) with `Bun.serve`. Import it from Bun only.
 *
 * A `reset` fault errors the response body mid-stream; Bun then closes the connection before the body ended
 * (Bun gives a handler no way to send a TCP RST).
 *
 * @since 0.1.0
 */
import { handlerOf, runningServer } from "./internal/running.ts"
import type { RunningServer, Servable, ServeOptions } from "./Serve.ts"

export type { RunningServer, Servable, ServeOptions } from "./Serve.ts"

/** The part of `Bun.serve` this module uses, so the package type-checks without Bun's types. */
interface BunServer {
  readonly port: number
  readonly hostname: string
  stop(closeActiveConnections?: boolean): Promise<void> | void
}
interface BunNamespace {
  serve(options: {
    port: number
    hostname: string
    idleTimeout?: number
    fetch: (request: Request) => Response | Promise<Response>
  }): BunServer
}

const bun = (): BunNamespace => {
  const b = (globalThis as { Bun?: BunNamespace }).Bun
  if (b === undefined)
    throw new Error("serveBun runs on Bun only; on Node use serveNode from @friendli-stream/testing/node.")
  return b
}

/**
 * Serves a handler (or the mock) with `Bun.serve`, by default on 127.0.0.1 and a free port.
 *
 * @example
 * const server = await serveBun(createMockFriendli())
 * await server.close()
 *
 * @since 0.1.0
 */
export const serveBun = async (target: Servable, options: ServeOptions = {}): Promise<RunningServer> => {
  const hostname = options.hostname ?? "127.0.0.1"
  // idleTimeout 0: a stalled stream must stay open until the client goes away
  const server = bun().serve({ port: options.port ?? 0, hostname, idleTimeout: 0, fetch: handlerOf(target) })
  return runningServer(target, hostname, server.port, async () => {
    await server.stop(true)
  })
}
