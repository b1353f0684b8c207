/**
 * The retry policy: which failures are retried, how long to wait (`Retry-After` first, else exponential backoff
 * with jitter), and the parsing of `Retry-After` (seconds or an HTTP date) and `retry-after-ms`.
 */

import { ApiError } from "@friendli-stream/stream"
import { statusRule } from "@friendli-stream/stream/internal"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as Schedule from "effect/Schedule"
import { ClientError, ConnectionError, StatusError } from "../ClientError.ts"
import type { ResolvedClientOptions } from "../ClientOptions.ts"

/** The retry options in force. */
export type RetryPolicy = Pick<
  ResolvedClientOptions,
  "maxRetries" | "initialRetryDelayMs" | "maxRetryDelayMs" | "maxRetryAfterMs"
>

/** How much of a backoff delay jitter may take away (25%). */
export const JITTER = 0.25

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms`, else `Retry-After` as (fractional) seconds or
 * an HTTP date (relative to `nowMs`). `undefined` when absent or unreadable; never negative.
 */
export const parseRetryAfter = (get: (name: string) => string | undefined, nowMs: number): number | undefined => {
  const ms = get("retry-after-ms")?.trim()
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms))
  const value = get("retry-after")?.trim()
  if (value === undefined || value === "") return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000)
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - nowMs)
}

/** Whether a failure may be retried (before the first chunk): connection errors, 408, 429, 5xx, retryable in-stream errors. */
export const isRetryable = (error: unknown): boolean => {
  if (error instanceof ConnectionError) return true
  if (error instanceof StatusError) return statusRule(error.status).retryable
  if (error instanceof ApiError) return error.retryable
  return false
}

/** The wait a failure asked for, if it carries one. */
const retryAfterOf = (error: unknown): number | undefined =>
  error instanceof ClientError && error instanceof StatusError ? error.retryAfterMs : undefined

/**
 * How long to wait before retry number `retry` (0 for the first retry), or `undefined` for "do not retry":
 * the retries ran out, the failure is not retryable, or the server asked for a wait longer than
 * `maxRetryAfterMs`. `random` is in [0, 1).
 */
export const retryDelayMs = (
  policy: RetryPolicy,
  retry: number,
  error: unknown,
  random: number,
): number | undefined => {
  if (retry >= policy.maxRetries || !isRetryable(error)) return undefined
  const asked = retryAfterOf(error)
  if (asked !== undefined) return asked <= policy.maxRetryAfterMs ? asked : undefined
  const base = Math.min(policy.initialRetryDelayMs * 2 ** retry, policy.maxRetryDelayMs)
  return Math.round(base * (1 - JITTER * random))
}

/**
 * The retry policy as a `Schedule` over the failures: each step waits {@link retryDelayMs} (exponential, jittered,
 * capped, or the server's `Retry-After`), and the schedule ends when that says "do not retry".
 */
export const retrySchedule = (policy: RetryPolicy): Schedule.Schedule<number, unknown> =>
  Schedule.fromStepWithMetadata(
    Effect.succeed((meta: Schedule.InputMetadata<unknown>) =>
      Effect.flatMap(Random.next, (random) => {
        const retry = meta.attempt - 1
        const delay = retryDelayMs(policy, retry, meta.input, random)
        return delay === undefined
          ? Cause.done(retry)
          : Effect.succeed([retry, Duration.millis(delay)] as [number, Duration.Duration])
      }),
    ),
  )
