/**
 * The HTTP service of the Node, Deno and Bun samples, on Web standards only (`Request` in, `Response` out), so that any
 * runtime serves it: `GET /` (usage), `POST /v1/stream` and `GET /v1/stream?prompt=` (the completion as
 * server-sent events). Each sample's `main.ts` brings only what is its runtime's: the adapter's client, how the mock
 * and the app are served, the environment and the signals.
 *
 * @example
 * export const startApp = (options: AppOptions = {}) =>
 *   startSample({ name: "Deno", defaultPort: 8000, createClient, serveMock: serveDeno, listen }, options)
 *
 * @since 0.1.0
 */
export * from "./cors.ts"
export * from "./drain.ts"
export * from "./handler.ts"
export * from "./limits.ts"
export * from "./start.ts"
export * from "./streams.ts"
export * from "./telemetry.ts"
