/**
 * Options of the Friendli client, shared by the Effect client and every runtime adapter's `createClient`.
 *
 * @since 0.1.0
 */

import type { DeploymentKind } from "@friendli-stream/core"
import type * as Redacted from "effect/Redacted"
import { DEFAULTS, resolveClientOptions as resolve } from "./internal/options.ts"
import type { TelemetryOptions } from "./Telemetry.ts"

/**
 * How the client reaches and talks to the server. Every member is optional.
 *
 * - `token` (or `apiKey`, its name in the openai SDK; not both): the bearer token; default `FRIENDLI_TOKEN`. Needed
 *   for Friendli's cloud (`serverless`, `dedicated` without `baseURL`); without it, no `Authorization` header is sent.
 * - `team`: sent as `X-Friendli-Team`; default `FRIENDLI_TEAM`.
 * - `deployment`: `"serverless"` (default), `"dedicated"` or `"container"`: picks the default base URL.
 * - `baseURL`: any OpenAI-compatible server, its root or its `/v1` as the openai SDK takes it (e.g.
 *   `http://127.0.0.1:8000`, `https://api.friendli.ai/serverless/v1`); not an endpoint's URL, no query string.
 * - `maxRetries`: retries after a connection error, 408, 429, 5xx or an in-stream error before the first chunk;
 *   default 2.
 * - `initialRetryDelayMs` / `maxRetryDelayMs`: the exponential backoff (jittered down by up to 25%) when the
 *   server gives no `Retry-After`; default 500 and 8000.
 * - `maxRetryAfterMs`: the longest `Retry-After` waited for; a longer one ends in the error at once. Default 60000.
 * - `firstByteTimeoutMs`: how long to wait for the response status and headers; default 60000.
 * - `idleTimeoutMs`: how long to wait for the next data event of a stream (keep-alive comments do not count),
 *   and for the body of a non-streamed response; default 60000. `Infinity` turns a timeout off.
 * - `headers`: extra request headers.
 *
 * @since 0.1.0
 */
export interface ClientOptions {
  /** The bearer token, as text or `Redacted` (it is kept `Redacted` either way). @since 0.1.0 */
  readonly token?: string | Redacted.Redacted<string> | undefined
  /** The bearer token under the openai SDK's name for it: `token`'s other name (pass one of them). @since 0.3.0 */
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
  /** @since 0.1.0 */
  readonly team?: string | undefined
  /** @since 0.1.0 */
  readonly deployment?: DeploymentKind | undefined
  /** @since 0.1.0 */
  readonly baseURL?: string | undefined
  /** @since 0.1.0 */
  readonly maxRetries?: number | undefined
  /** @since 0.1.0 */
  readonly initialRetryDelayMs?: number | undefined
  /** @since 0.1.0 */
  readonly maxRetryDelayMs?: number | undefined
  /** @since 0.1.0 */
  readonly maxRetryAfterMs?: number | undefined
  /** @since 0.1.0 */
  readonly firstByteTimeoutMs?: number | undefined
  /** @since 0.1.0 */
  readonly idleTimeoutMs?: number | undefined
  /** @since 0.1.0 */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /**
   * The Promise client's OpenTelemetry `tracer` and `meter` (see `Telemetry`); the Effect client reports through
   * the tracer and metrics of the program it runs in, and ignores this. @since 0.3.0
   */
  readonly telemetry?: TelemetryOptions | undefined
}

/**
 * The options with every default filled in and the environment read.
 *
 * @since 0.1.0
 */
export interface ResolvedClientOptions {
  /** The bearer token, `Redacted`: it never shows in a log line, an error or `JSON.stringify`. @since 0.1.0 */
  readonly token: Redacted.Redacted<string> | undefined
  /** @since 0.1.0 */
  readonly team: string | undefined
  /** @since 0.1.0 */
  readonly deployment: DeploymentKind
  /** The base URL in force: the server's root (a given `/v1` removed), without a trailing slash. @since 0.1.0 */
  readonly baseURL: string
  /** @since 0.1.0 */
  readonly maxRetries: number
  /** @since 0.1.0 */
  readonly initialRetryDelayMs: number
  /** @since 0.1.0 */
  readonly maxRetryDelayMs: number
  /** @since 0.1.0 */
  readonly maxRetryAfterMs: number
  /** @since 0.1.0 */
  readonly firstByteTimeoutMs: number
  /** @since 0.1.0 */
  readonly idleTimeoutMs: number
  /** @since 0.1.0 */
  readonly headers: Readonly<Record<string, string>>
}

/**
 * The defaults of the options that have one.
 *
 * @since 0.1.0
 */
export const defaultClientOptions: typeof DEFAULTS = DEFAULTS

/**
 * Fills in defaults and the environment (`FRIENDLI_TOKEN`, `FRIENDLI_TEAM`, read through Effect's default
 * `ConfigProvider`); throws `ClientConfigError` for options that cannot work (no token for Friendli's cloud, both
 * `token` and `apiKey`, a negative retry count, a base URL that is not http or is an endpoint's URL).
 *
 * @since 0.1.0
 */
export const resolveClientOptions = (options?: ClientOptions): ResolvedClientOptions => resolve(options)
