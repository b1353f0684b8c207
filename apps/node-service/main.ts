/**
 * The Node sample service: a small HTTP service on `node:http` that takes a prompt and streams the completion back
 * as server-sent events, through `@friendli-stream/node`. The service (routes, request parsing, errors, the embedded
 * mock) is `@friendli-stream/sample-service`, shared with the Deno and Bun samples; this file is what is Node's.
 *
 *     pnpm --filter @friendli-stream/node-service start
 *     curl -N localhost:8080/v1/stream -d '{"prompt":"Once upon a time"}'
 *
 * Without `FRIENDLI_TOKEN` it serves the mock Friendli endpoint in-process and streams from it; with a token it
 * streams from Friendli (or from `FRIENDLI_BASE_URL`, any OpenAI-compatible server). Every stream is resumable
 * (`GET /v1/stream/<id>` with `Last-Event-ID`, `DELETE` to cancel); with `REDIS_URL` the streams are kept in Redis,
 * shared by every instance on it.
 *
 * @since 0.3.0
 */
import { once } from "node:events"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { createClient } from "@friendli-stream/node"
import {
  type AppOptions,
  banner,
  drainAndExit,
  optionsFromEnv,
  type RunningApp,
  startSample,
} from "@friendli-stream/sample-service"
import { redisStore } from "@friendli-stream/sample-service/redis"
import { serveNode, toNodeListener } from "@friendli-stream/testing/node"

export type { AppOptions, RunningApp } from "@friendli-stream/sample-service"

/** The listener's accept queue: connections the kernel completes before the service accepts them. */
const LISTEN_BACKLOG = 4096

/**
 * Starts the app on `node:http`, by default on 127.0.0.1:8080; without a token, with the mock on a free port.
 *
 * @example
 * const app = await startApp({ port: 0 })
 * const res = await fetch(`${app.url}/v1/stream`, { method: "POST", body: JSON.stringify({ prompt: "Hi" }) })
 * await app.close()
 *
 * @since 0.3.0
 */
export const startApp = (options: AppOptions = {}): Promise<RunningApp> =>
  startSample(
    {
      name: "Node",
      defaultPort: 8080,
      createClient,
      redisStore,
      serveMock: serveNode,
      listen: async (handler, { port, hostname }) => {
        // toNodeListener streams the Web response with backpressure and aborts request.signal when the client goes.
        const server = createServer({ noDelay: true }, toNodeListener(handler))
        // A long accept queue: with node:http's default (511) a burst of connections (1,000 readers at once) overflows
        // it while the event loop is busy, the kernel drops their SYNs, and the clients' retries (1 s, 3 s, 7 s) pass
        // their connect timeouts (undici's 10 s). The kernel caps it at net.core.somaxconn.
        server.listen({ port, host: hostname, backlog: LISTEN_BACKLOG })
        await once(server, "listening")
        return {
          port: (server.address() as AddressInfo).port,
          stop: async () => {
            const closed = once(server, "close")
            server.close()
            server.closeAllConnections()
            await closed
          },
        }
      },
    },
    options,
  )

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = await startApp(optionsFromEnv((name) => process.env[name]))
  console.log(banner(app, "node-service"))
  const stop = () => {
    app.close().then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  // SIGTERM (a rolling deploy): no new streams, those in flight finish within DRAIN_GRACE_MS, then exit 0
  process.once("SIGTERM", drainAndExit(app, process.exit))
}
