/**
 * Starting a sample: the mock when there is no token, the client, the server, and closing them in order. What is a
 * runtime's own (its adapter's `createClient`, how it serves the mock, its HTTP server) comes in as functions.
 */

import type { PromiseClient, Telemetry } from "@friendli-stream/client"
import type { ResumableStore } from "@friendli-stream/resumable"
import { createMockFriendli, LIVE_PACING, type MockFriendli } from "@friendli-stream/testing"
import type * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { parseCorsOrigins, withCors } from "./cors.ts"
import { withDebugMemory } from "./debugMemory.ts"
import { DEFAULT_DRAIN_GRACE_MS, Drain, waitForStreams } from "./drain.ts"
import { makeHandler } from "./handler.ts"
import { OpenStreams, withLimits } from "./limits.ts"
import { makeStreams } from "./streams.ts"
import { otlpExport } from "./telemetry.ts"

/**
 * Where a sample listens and where it streams from.
 *
 * @since 0.1.0
 */
export interface AppOptions {
  /** Default: the sample's own (8000 on Deno, 3000 on Bun, 8080 on Node); 0 picks a free port. */
  readonly port?: number | undefined
  /** Default `127.0.0.1`. */
  readonly hostname?: string | undefined
  /** The Friendli token. Without one the app streams from a mock endpoint it serves itself. */
  readonly token?: string | undefined
  /** Any OpenAI-compatible server, without `/v1`; default Friendli's serverless endpoint. */
  readonly baseURL?: string | undefined
  /** The model of requests that name none; default `meta-llama-3.1-8b-instruct`. */
  readonly model?: string | undefined
  /** The embedded mock's pacing (a fault spec); default the mock's `LIVE_PACING`. */
  readonly mockFaults?: string | undefined
  /** The most requests the embedded mock remembers (default its 1,000). @since 0.3.0 */
  readonly mockMaxRecords?: number | undefined
  /**
   * A Redis (`redis://[:password@]host:port`, redacted: it may hold a password) to keep the streams in, so that
   * every instance on it serves every stream; default none: the streams are kept in this process's memory.
   *
   * @since 0.3.0
   */
  readonly redisUrl?: Redacted.Redacted<string> | undefined
  /** At most this many connections to Redis in the instance's pool (default 64). @since 0.3.0 */
  readonly redisMaxConnections?: number | undefined
  /** A stream producer's lease in milliseconds (default 15 000). @since 0.3.0 */
  readonly leaseMs?: number | undefined
  /** How long an ended stream can be resumed, in milliseconds (default 600 000). @since 0.3.0 */
  readonly retentionMs?: number | undefined
  /**
   * An OTLP/HTTP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, e.g. `http://127.0.0.1:4318`) to send the client's GenAI
   * spans and metrics to; default none. @since 0.3.0
   */
  readonly otlpEndpoint?: string | undefined
  /** A `: keep-alive` comment after this many milliseconds with nothing sent (default 15 000). @since 0.3.0 */
  readonly keepAliveMs?: number | undefined
  /** The largest request body in bytes (default 1 MiB): a larger one is a `413`. @since 0.3.0 */
  readonly maxBodyBytes?: number | undefined
  /** How long a request body may take to arrive, in milliseconds (default 10 000): then a `408`. @since 0.3.0 */
  readonly bodyTimeoutMs?: number | undefined
  /** At most this many streams open at once (default: no bound): one more is a `503` with `Retry-After`. @since 0.3.0 */
  readonly maxStreams?: number | undefined
  /** The origins allowed cross-origin: `"*"` or a list (default none: no CORS headers). @since 0.3.0 */
  readonly corsOrigins?: "*" | ReadonlyArray<string> | undefined
  /** How long a drain lets the streams in flight finish, in milliseconds (default 30 000). @since 0.3.0 */
  readonly drainGraceMs?: number | undefined
  /** Serve `GET /debug/memory` (heap and resident memory, after a GC when exposed), for load runs; default off. @since 0.3.0 */
  readonly debugMemory?: boolean | undefined
}

/**
 * A running sample.
 *
 * @since 0.1.0
 */
export interface RunningApp {
  /** e.g. `http://127.0.0.1:8000` (no trailing slash). */
  readonly url: string
  /** The embedded mock endpoint, when the app runs without a token. */
  readonly mock: MockFriendli | undefined
  /** The mock's own URL, when there is one. */
  readonly mockUrl: string | undefined
  /** Where the streams are kept: in this process's memory, or in Redis. @since 0.3.0 */
  readonly store: "memory" | "redis"
  /** Stops listening, ends the streams in flight and closes the client and the mock. */
  close(): Promise<void>
  /**
   * Drains, then closes: new streams are refused (`503`, `Retry-After`), the streams in flight may finish within
   * `graceMs` (default the options' `drainGraceMs`, else 30 000); the rest end (`producer_lost`) as `close()` ends them.
   * Whether every stream finished in time.
   *
   * @since 0.3.0
   */
  drain(graceMs?: number): Promise<boolean>
}

/**
 * A sample's server once it listens: its port, and how to stop it.
 *
 * @since 0.3.0
 */
export interface Listening {
  /** The port it listens on. */
  readonly port: number
  /** Stops listening and closes its connections. */
  stop(): Promise<void>
}

/**
 * What a runtime brings to a sample.
 *
 * @since 0.1.0
 */
export interface SampleRuntime {
  /** The runtime's name, in the usage text: `"Deno"`, `"Bun"`, `"Node"`. */
  readonly name: string
  /** The port when the options name none. */
  readonly defaultPort: number
  /** The runtime adapter's `createClient`. */
  readonly createClient: (options: {
    readonly token: string
    readonly baseURL?: string
    readonly telemetry?: Telemetry.TelemetryOptions
  }) => PromiseClient
  /** Serves the mock on a free port of 127.0.0.1 (`serveDeno`, `serveBun`). */
  readonly serveMock: (mock: MockFriendli) => Promise<{ readonly url: string; close(): Promise<void> }>
  /**
   * Serves `handler` on `port` (0: a free one) of `hostname`: the port it listens on, and how to stop it (at once,
   * or once it listens, as `node:http` does).
   */
  readonly listen: (
    handler: (request: Request) => Promise<Response>,
    address: { readonly port: number; readonly hostname: string },
  ) => Listening | Promise<Listening>
  /**
   * The Redis store at a URL, for `redisUrl` (`redisStore` from `@friendli-stream/sample-service/redis`); without it
   * the sample keeps its streams in memory and refuses a `redisUrl`.
   *
   * @since 0.3.0
   */
  readonly redisStore?:
    | ((url: Redacted.Redacted<string>, maxConnections?: number) => Layer.Layer<ResumableStore, unknown>)
    | undefined
}

/**
 * Starts a sample on a runtime. Without a token it first serves the mock Friendli endpoint on a free port of
 * 127.0.0.1 and points the client at it (with a demo token).
 *
 * @since 0.1.0
 */
export const startSample = async (runtime: SampleRuntime, options: AppOptions = {}): Promise<RunningApp> => {
  if (options.redisUrl !== undefined && runtime.redisStore === undefined) {
    throw new Error(
      `REDIS_URL is set, but the ${runtime.name} sample has no Redis store: unset it to keep streams in memory.`,
    )
  }
  const mock =
    options.token === undefined
      ? createMockFriendli({
          faults: options.mockFaults ?? LIVE_PACING,
          ...(options.mockMaxRecords === undefined ? {} : { maxRecords: options.mockMaxRecords }),
        })
      : undefined
  const mockServer = mock === undefined ? undefined : await runtime.serveMock(mock)
  const baseURL = mockServer === undefined ? options.baseURL : `${mockServer.url}/serverless`
  const otlp =
    options.otlpEndpoint === undefined
      ? undefined
      : await otlpExport(options.otlpEndpoint, `friendli-${runtime.name.toLowerCase()}-service`)
  const client = runtime.createClient({
    token: options.token ?? "demo-token",
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(otlp === undefined ? {} : { telemetry: otlp.telemetry }),
  })
  const streams = makeStreams(client, {
    defaultModel: options.model,
    store:
      options.redisUrl === undefined ? undefined : runtime.redisStore?.(options.redisUrl, options.redisMaxConnections),
    leaseMs: options.leaseMs,
    retentionMs: options.retentionMs,
    keepAliveMs: options.keepAliveMs,
  })
  if (options.redisUrl !== undefined) {
    // Reach the store now, not at the first request: a stream id no one has is a 404 from a store that answers.
    const probe = await streams.fetch(new Request("http://localhost/v1/stream/AAAAAAAAAAAAAAAAAAAAAA"))
    const answer = await probe.text()
    if (probe.status !== 404) {
      await streams.close().catch(() => {})
      await client.close()
      await otlp?.close()
      await mockServer?.close()
      throw new Error(`The Redis store (REDIS_URL) cannot be used: ${probe.status} ${answer}`)
    }
  }
  const hostname = options.hostname ?? "127.0.0.1"
  const open = new OpenStreams()
  const drain = new Drain()
  const handler = withCors(
    drain.wrap(withLimits(makeHandler(streams, { runtime: runtime.name }), options, open)),
    options.corsOrigins,
  )
  const server = await runtime.listen(options.debugMemory === true ? withDebugMemory(handler) : handler, {
    port: options.port ?? runtime.defaultPort,
    hostname,
  })
  const close = async () => {
    // Closing the streams ends every stream in flight (producer_lost) and its readers, so that the server can shut
    // down; then the client, its connections and the store go.
    await streams.close()
    await client.close()
    await otlp?.close()
    await mockServer?.close()
    await server.stop()
  }
  return {
    url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${server.port}`,
    mock,
    mockUrl: mockServer?.url,
    store: options.redisUrl === undefined ? "memory" : "redis",
    close,
    drain: async (graceMs = options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS) => {
      drain.start()
      const finished = await waitForStreams(open, graceMs)
      await close()
      return finished
    },
  }
}

/**
 * A sample's options from its environment: `PORT`, `HOST`, `FRIENDLI_TOKEN`, `FRIENDLI_BASE_URL`,
 * `FRIENDLI_MODEL`, `REDIS_URL`, `REDIS_MAX_CONNECTIONS`, `RESUMABLE_LEASE_MS`, `RESUMABLE_RETENTION_MS`,
 * `KEEP_ALIVE_MS`, `MAX_BODY_BYTES`, `BODY_TIMEOUT_MS`, `MAX_STREAMS`, `CORS_ORIGINS`, `DRAIN_GRACE_MS`,
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, `MOCK_FAULTS` (the embedded mock's faults) and `BENCH_STATS` (`1`: serve
 * `GET /debug/memory`); an empty variable counts as unset. A number that is not a whole number of milliseconds (or a port)
 * throws an error naming the variable.
 *
 * @since 0.1.0
 */
export const optionsFromEnv = (env: (name: string) => string | undefined): AppOptions => {
  const get = (name: string) => env(name) || undefined
  const whole = (name: string, min: number) => {
    const text = get(name)
    if (text === undefined) return undefined
    const value = Number(text)
    if (!Number.isInteger(value) || value < min) {
      throw new Error(`${name}=${JSON.stringify(text)} is not a whole number from ${min} on.`)
    }
    return value
  }
  const redisUrl = get("REDIS_URL")
  return {
    port: whole("PORT", 0),
    hostname: get("HOST"),
    token: get("FRIENDLI_TOKEN"),
    baseURL: get("FRIENDLI_BASE_URL"),
    model: get("FRIENDLI_MODEL"),
    mockFaults: get("MOCK_FAULTS"),
    redisUrl: redisUrl === undefined ? undefined : Redacted.make(redisUrl),
    redisMaxConnections: whole("REDIS_MAX_CONNECTIONS", 1),
    leaseMs: whole("RESUMABLE_LEASE_MS", 1),
    retentionMs: whole("RESUMABLE_RETENTION_MS", 1),
    otlpEndpoint: get("OTEL_EXPORTER_OTLP_ENDPOINT"),
    keepAliveMs: whole("KEEP_ALIVE_MS", 0),
    maxBodyBytes: whole("MAX_BODY_BYTES", 1),
    bodyTimeoutMs: whole("BODY_TIMEOUT_MS", 1),
    maxStreams: whole("MAX_STREAMS", 1),
    corsOrigins: parseCorsOrigins(get("CORS_ORIGINS")),
    drainGraceMs: whole("DRAIN_GRACE_MS", 0),
    debugMemory: get("BENCH_STATS") === "1",
  }
}

/**
 * What a sample prints once it listens: where the mock is (without a token), its URL and a `curl` to try.
 *
 * @since 0.1.0
 */
export const banner = (app: RunningApp, name: string): string =>
  [
    ...(app.mockUrl === undefined ? [] : [`No FRIENDLI_TOKEN: streaming from the embedded mock at ${app.mockUrl}`]),
    `friendli ${name} listening on ${app.url}`,
    `try: curl -N ${app.url}/v1/stream -d '{"prompt":"Once upon a time"}'`,
    `resume: curl -N -H 'Last-Event-ID: <the last id: you got>' ${app.url}/v1/stream/<id>  (streams kept in ${app.store === "memory" ? "memory" : "Redis (REDIS_URL)"})`,
  ].join("\n")

/**
 * What a runtime's `SIGTERM` listener does: says so, drains `app` (`app.drain()`), and exits with 0.
 *
 * @example
 * process.once("SIGTERM", drainAndExit(app, process.exit))
 *
 * @since 0.3.0
 */
export const drainAndExit =
  (app: RunningApp, exit: (code: number) => void): (() => void) =>
  () => {
    console.log("SIGTERM: draining (no new streams; those in flight may finish)")
    app.drain().then(
      (finished) => {
        console.log(finished ? "drained: every stream finished" : "drained: the rest ended (producer_lost)")
        exit(0)
      },
      (error: unknown) => {
        console.error("the drain failed:", error)
        exit(1)
      },
    )
  }
