/**
 * Serves a Web handler (such as the mock) with `node:http`.
 *
 * @since 0.1.0
 */
import "./internal/requireNode.ts"
import { once } from "node:events"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import { MockConnectionReset } from "./internal/body.ts"
import { handlerOf, runningServer } from "./internal/running.ts"
import type { RunningServer, Servable, ServeOptions } from "./Serve.ts"

export type { RunningServer, Servable, ServeOptions } from "./Serve.ts"

/**
 * The Web request of a `node:http` one; its body streams as it arrives (the handler bounds what it reads, and may
 * answer before the body is complete).
 */
const toRequest = (req: IncomingMessage, signal: AbortSignal): Request => {
  const host = req.headers.host ?? "localhost"
  const url = new URL(req.url ?? "/", `http://${host}`)
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  const method = req.method ?? "GET"
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers, signal })
  const body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>
  return new Request(url, { method, headers, signal, body, duplex: "half" } as RequestInit)
}

/**
 * A `node:http` request listener that runs a Web handler: the response body is streamed with backpressure, a
 * client that goes away cancels the body (and aborts `request.signal`), and a body that errors with
 * `MockConnectionReset` resets the TCP connection.
 *
 * @since 0.1.0
 */
export const toNodeListener =
  (target: Servable) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const handler = handlerOf(target)
    const abort = new AbortController()
    res.on("close", () => {
      if (!res.writableFinished) abort.abort(new Error("The client disconnected."))
    })
    void (async () => {
      let response: Response
      try {
        response = await handler(toRequest(req, abort.signal))
      } catch (error) {
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "text/plain" })
          res.end(`Handler failed: ${error instanceof Error ? error.message : String(error)}`)
        }
        return
      }
      if (res.destroyed) {
        await response.body?.cancel(new Error("The client disconnected."))
        return
      }
      const headers: Record<string, string | Array<string>> = {}
      response.headers.forEach((value, key) => {
        headers[key] = key === "set-cookie" ? response.headers.getSetCookie() : value
      })
      if (response.statusText === "") res.writeHead(response.status, headers)
      else res.writeHead(response.status, response.statusText, headers)
      if (response.body === null) {
        res.end()
        return
      }
      res.flushHeaders()
      const reader = response.body.getReader()
      const onClose = () => {
        if (!res.writableFinished) void reader.cancel(new Error("The client disconnected.")).catch(() => {})
      }
      res.on("close", onClose)
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          if (res.destroyed) return
          if (!res.write(value)) {
            await Promise.race([once(res, "drain"), once(res, "close")])
          }
        }
        res.end()
      } catch (error) {
        if (error instanceof MockConnectionReset) {
          // a real reset: RST instead of FIN
          const socket = req.socket
          if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy()
          else socket.destroy()
        } else {
          res.destroy(error instanceof Error ? error : new Error(String(error)))
        }
      }
    })()
  }

/**
 * Serves a handler (or the mock) on `node:http`, by default on 127.0.0.1 and a free port.
 *
 * @example
 * const server = await serveNode(createMockFriendli())
 * // ... fetch(`${server.url}/serverless/v1/completions`, ...)
 * await server.close()
 *
 * @since 0.1.0
 */
export const serveNode = async (
  target: Servable,
  options: ServeOptions = {},
): Promise<RunningServer & { readonly server: Server }> => {
  const hostname = options.hostname ?? "127.0.0.1"
  const server = createServer({ noDelay: true }, toNodeListener(target))
  server.keepAliveTimeout = 1000
  server.listen(options.port ?? 0, hostname)
  await once(server, "listening")
  const port = (server.address() as AddressInfo).port
  const running = runningServer(target, hostname, port, async () => {
    const closed = once(server, "close")
    server.close()
    server.closeAllConnections()
    await closed
  })
  return { ...running, server }
}
