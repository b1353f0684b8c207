/**
 * Request validation: reads a JSON body into typed parameters, collecting every problem with the field it is in.
 */
import type { ValidationIssue } from "./errors.ts"

/** A JSON object. */
export type Json = Readonly<Record<string, unknown>>

/** Collects issues while reading fields of a body. */
export class Reader {
  readonly issues: Array<ValidationIssue> = []

  constructor(readonly body: Json) {}

  issue(loc: ReadonlyArray<string | number>, msg: string, type: string, input?: unknown): undefined {
    this.issues.push(input === undefined ? { loc, msg, type } : { loc, msg, type, input })
    return undefined
  }

  /** A field that is absent or null reads as `undefined`. */
  private value(key: string): unknown {
    const v = this.body[key]
    return v === null ? undefined : v
  }

  has(key: string): boolean {
    return this.value(key) !== undefined
  }

  string(key: string, required = false): string | undefined {
    const v = this.value(key)
    if (v === undefined) return required ? this.issue([key], "Field required", "missing") : undefined
    if (typeof v !== "string") return this.issue([key], "Input should be a valid string", "string_type", v)
    return v
  }

  boolean(key: string): boolean | undefined {
    const v = this.value(key)
    if (v === undefined) return undefined
    if (typeof v !== "boolean") return this.issue([key], "Input should be a valid boolean", "bool_type", v)
    return v
  }

  number(key: string, min?: number, max?: number, exclusiveMin = false): number | undefined {
    const v = this.value(key)
    if (v === undefined) return undefined
    if (typeof v !== "number" || !Number.isFinite(v)) {
      return this.issue([key], "Input should be a valid number", "float_type", v)
    }
    return this.bounds(key, v, min, max, exclusiveMin)
  }

  integer(key: string, min?: number, max?: number): number | undefined {
    const v = this.value(key)
    if (v === undefined) return undefined
    if (typeof v !== "number" || !Number.isInteger(v)) {
      return this.issue([key], "Input should be a valid integer", "int_type", v)
    }
    return this.bounds(key, v, min, max, false)
  }

  private bounds(key: string, v: number, min?: number, max?: number, exclusiveMin = false): number | undefined {
    if (min !== undefined && (exclusiveMin ? v <= min : v < min)) {
      return exclusiveMin
        ? this.issue([key], `Input should be greater than ${min}`, "greater_than", v)
        : this.issue([key], `Input should be greater than or equal to ${min}`, "greater_than_equal", v)
    }
    if (max !== undefined && v > max) {
      return this.issue([key], `Input should be less than or equal to ${max}`, "less_than_equal", v)
    }
    return v
  }

  array(key: string): ReadonlyArray<unknown> | undefined {
    const v = this.value(key)
    if (v === undefined) return undefined
    if (!Array.isArray(v)) return this.issue([key], "Input should be a valid array", "list_type", v)
    return v
  }

  object(key: string): Json | undefined {
    const v = this.value(key)
    if (v === undefined) return undefined
    if (!isObject(v)) return this.issue([key], "Input should be a valid dictionary", "dict_type", v)
    return v
  }

  /** An array of strings (e.g. `stop`). */
  strings(key: string): ReadonlyArray<string> | undefined {
    const items = this.array(key)
    if (items === undefined) return undefined
    let ok = true
    items.forEach((item, i) => {
      if (typeof item !== "string") {
        ok = false
        this.issue([key, i], "Input should be a valid string", "string_type", item)
      }
    })
    return ok ? (items as ReadonlyArray<string>) : undefined
  }

  /** An array of integers (e.g. `tokens`); `min` bounds every item. */
  integers(key: string, min = Number.MIN_SAFE_INTEGER): ReadonlyArray<number> | undefined {
    const items = this.array(key)
    if (items === undefined) return undefined
    let ok = true
    items.forEach((item, i) => {
      if (typeof item !== "number" || !Number.isInteger(item)) {
        ok = false
        this.issue([key, i], "Input should be a valid integer", "int_type", item)
      } else if (item < min) {
        ok = false
        this.issue([key, i], `Input should be greater than or equal to ${min}`, "greater_than_equal", item)
      }
    })
    return ok ? (items as ReadonlyArray<number>) : undefined
  }
}

/** Whether a value is a plain JSON object. */
export const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/** Sampling and length parameters shared by both APIs. */
export interface GenerationParams {
  readonly model: string
  readonly stream: boolean
  readonly includeUsage: boolean
  readonly maxTokens: number | undefined
  readonly minTokens: number
  readonly n: number
  /** One seed per choice, or `undefined` when the request gave none. */
  readonly seeds: ReadonlyArray<number> | undefined
  readonly stop: ReadonlyArray<string>
  readonly ignoreEos: boolean
}

/** The largest `n` the mock accepts. */
export const MAX_N = 16
/** The largest `max_tokens` the mock accepts (the mock model's context length). */
export const MAX_TOKENS = 4096
/** The largest number of alternatives `logprobs` / `top_logprobs` can ask for. */
export const MAX_LOGPROBS = 20

/** Reads the fields common to completions and chat completions. `model` is checked by the router. */
export const readGeneration = (r: Reader, model: string): GenerationParams => {
  const stream = r.boolean("stream") ?? false
  const streamOptions = r.object("stream_options")
  let includeUsage = false
  if (streamOptions !== undefined) {
    if (!stream) {
      r.issue(["stream_options"], "stream_options can only be used when stream is true", "value_error", streamOptions)
    }
    const inc = streamOptions.include_usage
    if (inc !== undefined && inc !== null && typeof inc !== "boolean") {
      r.issue(["stream_options", "include_usage"], "Input should be a valid boolean", "bool_type", inc)
    } else includeUsage = inc === true
  }
  const maxTokens = r.integer("max_tokens", 1, MAX_TOKENS)
  const minTokens = r.integer("min_tokens", 0, MAX_TOKENS) ?? 0
  if (maxTokens !== undefined && minTokens > maxTokens) {
    r.issue(["min_tokens"], "min_tokens must be less than or equal to max_tokens", "value_error", minTokens)
  }
  const n = r.integer("n", 1, MAX_N) ?? 1
  r.number("temperature", 0, 2)
  r.number("top_p", 0, 1, true)
  r.integer("top_k", 0)
  r.number("frequency_penalty", -2, 2)
  r.number("presence_penalty", -2, 2)
  r.number("repetition_penalty", 0, undefined, true)
  r.string("user")
  const stop = r.strings("stop") ?? []
  const ignoreEos = r.boolean("ignore_eos") ?? false
  let seeds: ReadonlyArray<number> | undefined
  const seed = r.body.seed
  if (typeof seed === "number") {
    if (!Number.isInteger(seed) || seed < 0)
      r.issue(["seed"], "Input should be a non-negative integer", "int_type", seed)
    else seeds = Array.from({ length: n }, (_, i) => seed + i)
  } else if (Array.isArray(seed)) {
    const list = r.integers("seed", 0)
    if (list !== undefined) {
      if (list.length !== n) {
        r.issue(["seed"], `seed must have one value per choice (n = ${n}), got ${list.length}`, "value_error", seed)
      } else seeds = list
    }
  } else if (seed !== undefined && seed !== null) {
    r.issue(["seed"], "Input should be an integer or a list of integers", "int_type", seed)
  }
  return { model, stream, includeUsage, maxTokens, minTokens, n, seeds, stop, ignoreEos }
}
