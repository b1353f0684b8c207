/**
 * The Bun sample: a small HTTP service on `Bun.serve` that takes a prompt and streams the completion back as
 * server-sent events, through `@friendli-stream/bun`. The service (routes, request parsing, errors, the embedded
 * mock) is `@friendli-stream/sample-service`, shared with the Deno sample; this file is what is Bun's.
 *
 *     pnpm --filter @friendli-stream/bun-app start
 *     curl -N localhost:3000/v1/stream -d '{"prompt":"Once upon a time"}'
 *
 * Without `FRIENDLI_TOKEN` it serves the mock Friendli endpoint in-process and streams from it; with a token it
 * streams from Friendli (or from `FRIENDLI_BASE_URL`, any OpenAI-compatible server). Every stream is resumable
 * (`GET /v1/stream/<id>` with `Last-Event-ID`, `DELETE` to cancel); with `REDIS_URL` the streams are kept in Redis,
 * shared by every instance on it.
 *
 * @since 0.1.0
 */
import { createClient } from "@friendli-stream/bun"
import {
  type AppOptions,
  banner,
  drainAndExit,
  optionsFromEnv,
  type RunningApp,
  startSample,
} from "@friendli-stream/sample-service"
import { redisStore } from "@friendli-stream/sample-service/redis"
import { serveBun } from "@friendli-stream/testing/bun"

export type { AppOptions, RunningApp } from "@friendli-stream/sample-service"

/**
 * Starts the app on `Bun.serve`, by default on 127.0.0.1:3000; without a token, with the mock on a free port.
 *
 * @example
 * const app = await startApp({ port: 0 })
 * const res = await fetch(`${app.url}/v1/stream`, { method: "POST", body: JSON.stringify({ prompt: "Hi" }) })
 * await app.close()
 *
 * @since 0.1.0
 */
export const startApp = (options: AppOptions = {}): Promise<RunningApp> =>
  startSample(
    {
      name: "Bun",
      defaultPort: 3000,
      createClient,
      redisStore,
      serveMock: serveBun,
      listen: (fetch, { port, hostname }) => {
        // Bun closes a connection idle for 10 s by default; a model may think longer than that before its first token.
        const server = Bun.serve({ port, hostname, idleTimeout: 120, fetch })
        return { port: server.port as number, stop: () => server.stop(true) }
      },
    },
    options,
  )

if (import.meta.main) {
  const app = await startApp(optionsFromEnv((name) => Bun.env[name]))
  console.log(banner(app, "bun-app"))
  const stop = () => {
    app.close().then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  // SIGTERM (a rolling deploy): no new streams, those in flight finish within DRAIN_GRACE_MS, then exit 0
  process.once("SIGTERM", drainAndExit(app, process.exit))
}
