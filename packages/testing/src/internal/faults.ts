/**
 * Fault switches: how a test asks one request to misbehave.
 *
 * A fault spec is a comma-separated list of switches, `name` or `name:argument`, for example
 * `delay:20,bytes:1,truncate:3`. It can come from (later wins for the same switch):
 * the mock's `faults` option, the queue (`mock.queueFaults`), a `/_fault/SPEC` path prefix,
 * the `fault` query parameter (repeatable) and the `X-Mock-Fault` header.
 */
import type { Eol } from "./frames.ts"

/**
 * What one request will do wrong. All fields are optional: an empty plan is a well-behaved server.
 *
 * @since 0.1.0
 */
export interface FaultPlan {
  /** Wait this long before answering at all (before the status line and headers). */
  readonly delayFirstMs?: number
  /** Wait this long between events of a stream. */
  readonly delayMs?: number
  /** Send a `: keep-alive` comment before every event. */
  readonly comments?: boolean
  /** While the stream is idle (delays, stalls), send a `: keep-alive` comment every this many ms. */
  readonly keepaliveMs?: number
  /** Cut every write into pieces of this many bytes (1 = one byte per write). */
  readonly bytes?: number
  /** End writes at every line terminator, so that CR and LF of a CRLF arrive in different reads. */
  readonly splitEol?: boolean
  /** Put this many events into one write. */
  readonly coalesce?: number
  /** The line terminator of the event framing. */
  readonly eol?: Eol
  /** End the body cleanly after this many events (no `[DONE]`). */
  readonly truncateAfter?: number
  /** After this many events, send an in-stream error event and end the body. */
  readonly errorAfter?: number
  /** How the in-stream error is framed: `event: error` + data (default), or a bare `data:` line. */
  readonly errorForm?: "event" | "data"
  /** After this many events, send nothing more, ever (until the client goes away). */
  readonly stallAfter?: number
  /** After this many events, reset the connection. */
  readonly resetAfter?: number
  /** Leave out the final `data: [DONE]`. */
  readonly noDone?: boolean
  /** Answer 429 with this `Retry-After` (seconds). */
  readonly rateLimit?: string
  /** Answer with this status (4xx or 5xx) and an error body. */
  readonly status?: number
  /** On the tool-assisted endpoint, the first built-in tool call fails (`status: "ERRORED"`). */
  readonly toolError?: boolean
}

/**
 * A fault switch that could not be understood.
 *
 * @since 0.1.0
 */
export class FaultSpecError extends Error {
  override readonly name = "FaultSpecError"
}

/**
 * Every switch name, with the argument it takes, for messages and documentation.
 *
 * @since 0.1.0
 */
export const FAULT_SWITCHES: Readonly<Record<string, string>> = {
  "delay-first": "MS",
  delay: "MS",
  comments: "",
  keepalive: "MS",
  bytes: "N",
  "split-eol": "",
  coalesce: "N",
  eol: "lf|crlf|cr",
  truncate: "K",
  error: "K[:data]",
  stall: "[K]",
  reset: "[K]",
  "no-done": "",
  "rate-limit": "[SECONDS]",
  status: "CODE",
  "tool-error": "",
}

const usage = (): string =>
  Object.entries(FAULT_SWITCHES)
    .map(([name, arg]) => (arg === "" ? name : `${name}:${arg}`))
    .join(", ")

const int = (name: string, arg: string | undefined, min: number, fallback?: number): number => {
  if (arg === undefined || arg === "") {
    if (fallback !== undefined) return fallback
    throw new FaultSpecError(`Fault '${name}' needs a number argument, as in '${name}:${FAULT_SWITCHES[name]}'.`)
  }
  if (!/^\d+$/.test(arg) || Number(arg) < min) {
    throw new FaultSpecError(`Fault '${name}:${arg}': the argument must be an integer >= ${min}.`)
  }
  return Number(arg)
}

const none = (name: string, arg: string | undefined): void => {
  if (arg !== undefined) throw new FaultSpecError(`Fault '${name}' takes no argument; write '${name}'.`)
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** Applies one spec string on top of a plan. Throws `FaultSpecError` for unknown switches or bad arguments. */
export const applyFaultSpec = (base: FaultPlan, spec: string): FaultPlan => {
  const plan: Mutable<FaultPlan> = { ...base }
  for (const raw of spec.split(",")) {
    const item = raw.trim()
    if (item === "") continue
    const colon = item.indexOf(":")
    const name = (colon < 0 ? item : item.slice(0, colon)).trim().toLowerCase()
    const arg = colon < 0 ? undefined : item.slice(colon + 1).trim()
    switch (name) {
      case "delay-first":
        plan.delayFirstMs = int(name, arg, 0)
        break
      case "delay":
        plan.delayMs = int(name, arg, 0)
        break
      case "comments":
        none(name, arg)
        plan.comments = true
        break
      case "keepalive":
        plan.keepaliveMs = int(name, arg, 1)
        break
      case "bytes":
        plan.bytes = int(name, arg, 1)
        break
      case "split-eol":
        none(name, arg)
        plan.splitEol = true
        break
      case "coalesce":
        plan.coalesce = int(name, arg, 1)
        break
      case "eol":
        if (arg === "lf") plan.eol = "\n"
        else if (arg === "crlf") plan.eol = "\r\n"
        else if (arg === "cr") plan.eol = "\r"
        else throw new FaultSpecError(`Fault 'eol:${arg ?? ""}': use eol:lf, eol:crlf or eol:cr.`)
        break
      case "truncate":
        plan.truncateAfter = int(name, arg, 0)
        break
      case "error": {
        const [k, form] = (arg ?? "").split(":")
        if (form !== undefined && form !== "data" && form !== "event") {
          throw new FaultSpecError(`Fault 'error:${arg}': the second argument is 'event' (default) or 'data'.`)
        }
        plan.errorAfter = int(name, k, 0)
        plan.errorForm = form === "data" ? "data" : "event"
        break
      }
      case "stall":
        plan.stallAfter = int(name, arg, 0, 0)
        break
      case "reset":
        plan.resetAfter = int(name, arg, 0, 0)
        break
      case "no-done":
        none(name, arg)
        plan.noDone = true
        break
      case "rate-limit":
        plan.rateLimit = String(int(name, arg, 0, 1))
        break
      case "status": {
        const code = int(name, arg, 400)
        if (code > 599) throw new FaultSpecError(`Fault 'status:${code}': the status must be 400 to 599.`)
        plan.status = code
        break
      }
      case "tool-error":
        none(name, arg)
        plan.toolError = true
        break
      default:
        throw new FaultSpecError(`Unknown fault '${name}'. Known switches: ${usage()}.`)
    }
  }
  return plan
}

/**
 * Parses a spec on its own (validating it).
 *
 * @since 0.1.0
 */
export const parseFaultSpec = (spec: string): FaultPlan => applyFaultSpec({}, spec)

/**
 * The header a test sets to choose faults for one request.
 *
 * @since 0.1.0
 */
export const FAULT_HEADER = "x-mock-fault"
/**
 * The query parameter a test sets to choose faults for one request.
 *
 * @since 0.1.0
 */
export const FAULT_QUERY = "fault"
/**
 * The path prefix that carries faults inside a base URL: `/_fault/SPEC/serverless/v1/...`.
 *
 * @since 0.1.0
 */
export const FAULT_PATH_PREFIX = "/_fault/"
