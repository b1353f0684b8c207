/**
 * The Deno sample: a small HTTP service on `Deno.serve` that takes a prompt and streams the completion back as
 * server-sent events, through `@friendli-stream/deno`. The service (routes, request parsing, errors, the embedded
 * mock) is `@friendli-stream/sample-service`, shared with the Bun sample; this file is what is Deno's.
 *
 *     pnpm --filter @friendli-stream/deno-app start
 *     curl -N localhost:8000/v1/stream -d '{"prompt":"Once upon a time"}'
 *
 * Without `FRIENDLI_TOKEN` it serves the mock Friendli endpoint in-process and streams from it; with a token it
 * streams from Friendli (or from `FRIENDLI_BASE_URL`, any OpenAI-compatible server). Every stream is resumable
 * (`GET /v1/stream/<id>` with `Last-Event-ID`, `DELETE` to cancel); with `REDIS_URL` the streams are kept in Redis,
 * shared by every instance on it.
 *
 * @since 0.1.0
 */
import { createClient } from "@friendli-stream/deno"
import {
  type AppOptions,
  banner,
  drainAndExit,
  optionsFromEnv,
  type RunningApp,
  startSample,
} from "@friendli-stream/sample-service"
import { redisStore } from "@friendli-stream/sample-service/redis"
import { serveDeno } from "@friendli-stream/testing/deno"

export type { AppOptions, RunningApp } from "@friendli-stream/sample-service"

/**
 * Starts the app on `Deno.serve`, by default on 127.0.0.1:8000; without a token, with the mock on a free port.
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
      name: "Deno",
      defaultPort: 8000,
      createClient,
      redisStore,
      serveMock: serveDeno,
      listen: (handler, { port, hostname }) => {
        const server = Deno.serve({ port, hostname, onListen: () => {} }, handler)
        return { port: server.addr.port, stop: () => server.shutdown() }
      },
    },
    options,
  )

if (import.meta.main) {
  const app = await startApp(optionsFromEnv((name) => Deno.env.get(name)))
  console.log(banner(app, "deno-app"))
  const stop = () => {
    app.close().then(() => Deno.exit(0))
  }
  Deno.addSignalListener("SIGINT", stop)
  // SIGTERM (a rolling deploy): no new streams, those in flight finish within DRAIN_GRACE_MS, then exit 0
  Deno.addSignalListener("SIGTERM", drainAndExit(app, Deno.exit))
}
