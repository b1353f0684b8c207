/** What every runtime server (`serveNode`, `serveDeno`, `serveBun`) does the same way around its own listener. */
import type { RunningServer, Servable } from "../Serve.ts"

/** The Web handler of a servable: the function itself, or its `fetch` bound to it. */
export const handlerOf = (target: Servable): ((request: Request) => Promise<Response>) =>
  typeof target === "function" ? target : target.fetch.bind(target)

/**
 * The running server on `hostname:port` (an IPv6 host in brackets in the URL); `close()` first lets the target end its
 * in-flight responses (the mock's `close()`), then `stop`s the runtime's listener.
 */
export const runningServer = (
  target: Servable,
  hostname: string,
  port: number,
  stop: () => Promise<void>,
): RunningServer => ({
  hostname,
  port,
  url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`,
  close: async () => {
    if (typeof target !== "function") target.close?.()
    await stop()
  },
})
