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

/** The parts of a URL the checks read (the global `URL`, typed structurally: the client needs no DOM types). */
interface UrlParts {
  readonly protocol: string
  readonly origin: string
  readonly pathname: string
  readonly search: string
  readonly hash: string
}

/** The API paths a base URL must not end with: it is the server's root (or its `/v1`), not an endpoint. */
const ENDPOINT_SUFFIX =
  /(\/v1)?\/(chat\/completions|completions|responses|messages|audio\/transcriptions|models|tokenize|detokenize)$/

/**
 * The base URL the client joins its paths (`/v1/chat/completions`, ...) to: the server's root, trailing slashes
 * removed. A base URL ending in `/v1` is read as the openai SDK reads it, the root's `/v1` (Friendli's documented
 * `https://api.friendli.ai/serverless/v1` is `https://api.friendli.ai/serverless`). One that cannot work (not an
 * http(s) URL, a query string or fragment, an endpoint's path) throws `ClientConfigError` naming the fix.
 */
export const checkBaseUrl = (baseURL: string): string => {
  let url: UrlParts
  try {
    url = new (globalThis as unknown as { URL: new (input: string) => UrlParts }).URL(baseURL)
  } catch {
    throw invalid(
      "baseURL",
      `baseURL must be an absolute http(s) URL such as "http://127.0.0.1:8000", got "${baseURL}".`,
    )
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid("baseURL", `baseURL must use http or https, got "${baseURL}".`)
  }
  const path = url.pathname.replace(/\/+$/, "")
  if (url.search !== "" || url.hash !== "") {
    throw invalid(
      "baseURL",
      `baseURL cannot carry a query string or fragment (the client adds paths to it), got "${baseURL}"; ` +
        `use "${url.origin}${path}" and pass extra parameters as headers.`,
    )
  }
  if (ENDPOINT_SUFFIX.test(path)) {
    throw invalid(
      "baseURL",
      `baseURL is the server's root or its /v1, not an endpoint (the client adds each API's path), got ` +
        `"${baseURL}"; use "${url.origin}${path.replace(ENDPOINT_SUFFIX, "")}/v1".`,
    )
  }
  return `${url.origin}${path.replace(/\/v1$/, "")}`
}

/** The token, given as `token` or as its other name `apiKey` (the openai SDK's and the AI SDK's), not both. */
const tokenOption = (options: ClientOptions): ClientOptions["token"] => {
  if (options.token !== undefined && options.apiKey !== undefined) {
    throw invalid("apiKey", "token and apiKey name the same option (the bearer token); pass one of them, not both.")
  }
  return options.token ?? options.apiKey
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
  const baseURL = checkBaseUrl(options.baseURL ?? defaultBaseUrls[deployment])
  const given = tokenOption(options) ?? env.FRIENDLI_TOKEN
  const token =
    given === undefined || Redacted.isRedacted(given) ? given : Redacted.make(given, { label: "FRIENDLI_TOKEN" })
  if (token === undefined && options.baseURL === undefined && deployment !== "container") {
    throw new ClientConfigError({
      reason: "MissingToken",
      option: "token",
      message:
        `Friendli ${deployment} endpoints need a token: pass { token } (or { apiKey }) or set FRIENDLI_TOKEN ` +
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
