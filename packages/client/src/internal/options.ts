/** Client options: defaults, the environment, and checks that fail early with `ClientConfigError`. */

import { defaultBaseUrls, isDeploymentKind } from "@friendli-stream/core"
import * as Redacted from "effect/Redacted"
import { ClientConfigError } from "../ClientError.ts"
import type { ClientOptions, ResolvedClientOptions } from "../ClientOptions.ts"
import { type Environment, readEnvironment } from "./env.ts"

/** The defaults of the options that have one. */
export const DEFAULTS: Pick<
  ResolvedClientOptions,
  | "deployment"
  | "maxRetries"
  | "initialRetryDelayMs"
  | "maxRetryDelayMs"
  | "maxRetryAfterMs"
  | "firstByteTimeoutMs"
  | "idleTimeoutMs"
> = {
  deployment: "serverless",
  maxRetries: 2,
  initialRetryDelayMs: 500,
  maxRetryDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  firstByteTimeoutMs: 60_000,
  idleTimeoutMs: 60_000,
}

const invalid = (option: string, message: string): ClientConfigError =>
  new ClientConfigError({ reason: "InvalidOption", option, message })

const count = (option: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (!(Number.isInteger(value) && value >= 0)) {
    throw invalid(option, `${option} must be a whole number >= 0, got ${String(value)}.`)
  }
  return value
}

const duration = (option: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (!(typeof value === "number" && value > 0)) {
    throw invalid(
      option,
      `${option} must be a number of milliseconds > 0 (Infinity turns it off), got ${String(value)}.`,
    )
  }
  return value
}

const checkUrl = (baseURL: string): string => {
  let url: { readonly protocol: string }
  try {
    url = new (globalThis as unknown as { URL: new (input: string) => { readonly protocol: string } }).URL(baseURL)
  } catch {
    throw invalid(
      "baseURL",
      `baseURL must be an absolute http(s) URL such as "http://127.0.0.1:8000", got "${baseURL}".`,
    )
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid("baseURL", `baseURL must use http or https, got "${baseURL}".`)
  }
  return baseURL.replace(/\/+$/, "")
}

/** Fills in defaults and the environment; throws `ClientConfigError` for options that cannot work. */
export const resolveClientOptions = (
  options: ClientOptions = {},
  env: Environment = readEnvironment(),
): ResolvedClientOptions => {
  const deployment = options.deployment ?? DEFAULTS.deployment
  if (!isDeploymentKind(deployment)) {
    throw invalid(
      "deployment",
      `deployment must be "serverless", "dedicated" or "container", got ${JSON.stringify(deployment)}.`,
    )
  }
  const baseURL = checkUrl(options.baseURL ?? defaultBaseUrls[deployment])
  const given = options.token ?? env.FRIENDLI_TOKEN
  const token =
    given === undefined || Redacted.isRedacted(given) ? given : Redacted.make(given, { label: "FRIENDLI_TOKEN" })
  if (token === undefined && options.baseURL === undefined && deployment !== "container") {
    throw new ClientConfigError({
      reason: "MissingToken",
      option: "token",
      message:
        `Friendli ${deployment} endpoints need a token: pass { token } or set FRIENDLI_TOKEN ` +
        `(a personal access token, flp_...).`,
    })
  }
  const initialRetryDelayMs = duration("initialRetryDelayMs", options.initialRetryDelayMs, DEFAULTS.initialRetryDelayMs)
  return {
    token,
    team: options.team ?? env.FRIENDLI_TEAM,
    deployment,
    baseURL,
    maxRetries: count("maxRetries", options.maxRetries, DEFAULTS.maxRetries),
    initialRetryDelayMs,
    maxRetryDelayMs: Math.max(
      initialRetryDelayMs,
      duration("maxRetryDelayMs", options.maxRetryDelayMs, DEFAULTS.maxRetryDelayMs),
    ),
    maxRetryAfterMs: count("maxRetryAfterMs", options.maxRetryAfterMs, DEFAULTS.maxRetryAfterMs),
    firstByteTimeoutMs: duration("firstByteTimeoutMs", options.firstByteTimeoutMs, DEFAULTS.firstByteTimeoutMs),
    idleTimeoutMs: duration("idleTimeoutMs", options.idleTimeoutMs, DEFAULTS.idleTimeoutMs),
    headers: { ...options.headers },
  }
}
