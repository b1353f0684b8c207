/**
 * Request validation: the generated request Schemas of `@friendli-stream/core` decide what a body may hold (types,
 * required fields, enums, bounds), so the mock accepts exactly what Friendli's API description allows; a few rules
 * of the mock model follow (its context length, how many choices it makes, fields that need each other). Every problem
 * becomes one issue naming its field.
 */
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import type { ValidationIssue } from "./errors.ts"

/** A JSON object. */
export type Json = Readonly<Record<string, unknown>>

/** Whether a value is a plain JSON object. */
export const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

const TYPES: Readonly<Record<string, string>> = {
  MissingKey: "missing",
  InvalidType: "type_error",
  InvalidValue: "value_error",
  UnexpectedKey: "extra_forbidden",
  Filter: "value_error",
  AnyOf: "union_tag_invalid",
}

/** The issues of one schema failure, one per wrong field; in a union, the member closest to the value speaks. */
const issuesOf = (issue: SchemaIssue.Issue, loc: ReadonlyArray<string | number>): Array<ValidationIssue> => {
  switch (issue._tag) {
    case "Pointer":
      return issuesOf(
        issue.issue,
        issue.path.length === 0 ? loc : [...loc, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
      )
    case "Composite":
      return issue.issues.flatMap((i) => issuesOf(i, loc))
    case "AnyOf":
      if (issue.issues.length > 0) {
        // the member with the fewest missing keys, then the fewest wrong fields (as a reader would guess)
        const score = (list: ReadonlyArray<ValidationIssue>) =>
          list.filter((i) => i.type === "missing").length * 1e6 + list.length
        return issue.issues
          .map((i) => issuesOf(i, loc))
          .reduce((best, list) => (score(list) < score(best) ? list : best))
      }
      break
  }
  const input = SchemaIssue.hasInput(issue) ? issue.input : undefined
  return standard(issue).issues.map((i) => ({
    loc: [...loc, ...(i.path ?? []).map((p) => (typeof p === "object" ? String(p.key) : String(p)))],
    msg: i.message,
    type: TYPES[issue._tag] ?? "value_error",
    ...(input === undefined ? {} : { input }),
  }))
}

/** Every wrong field is reported; properties the Schema does not name are kept (servers add fields). */
const options = { errors: "all", onExcessProperty: "ignore", reportInput: true } as const

/** A request as the mock reads it: the decoded fields, each optional (a rule may find any of them absent). */
export type Accepted<T> = { readonly [K in keyof T]?: T[K] }

/**
 * A request checked against its generated Schema, and the issues of the mock's own rules on top. `request` is the
 * decoded request; where the Schema refused the body, it holds the fields the Schema found no fault with (decoding
 * reports every wrong field, and the generated Schemas decode each field to its wire value), so that the rules can
 * still speak of the others and the 422 lists every wrong field at once.
 */
export class Checker<T> {
  readonly issues: Array<ValidationIssue>
  readonly request: Accepted<T>
  private readonly wrong: Set<string>

  constructor(body: unknown, schema: Schema.Decoder<T>) {
    const result = SchemaParser.decodeUnknownResult(schema, options)(body)
    this.issues = result._tag === "Success" ? [] : issuesOf(result.failure, [])
    this.wrong = new Set(this.issues.map((i) => String(i.loc[0])))
    this.request =
      result._tag === "Success"
        ? result.success
        : (Object.fromEntries(
            Object.entries(isObject(body) ? body : {}).filter(([k]) => !this.wrong.has(k)),
          ) as Accepted<T>)
  }

  /** Records a rule's issue, unless the Schema (or another rule) already found the field wrong. */
  issue(loc: ReadonlyArray<string | number>, msg: string, type: string, input?: unknown): void {
    if (this.wrong.has(String(loc[0]))) return
    this.wrong.add(String(loc[0]))
    this.issues.push(input === undefined ? { loc, msg, type } : { loc, msg, type, input })
  }

  /** A number field no larger than the mock model's limit `max`; absent or null is `undefined`. */
  atMost(key: string, value: number | null | undefined, max: number, why: string): number | undefined {
    if (value !== null && value !== undefined && value > max) {
      this.issue([key], `Input should be less than or equal to ${max} (${why})`, "less_than_equal", value)
    }
    return value ?? undefined
  }

  /** A number field no smaller than the mock model's limit `min`; absent or null is `undefined`. */
  atLeast(key: string, value: number | null | undefined, min: number, why: string): number | undefined {
    if (value !== null && value !== undefined && value < min) {
      this.issue([key], `Input should be greater than or equal to ${min} (${why})`, "greater_than_equal", value)
    }
    return value ?? undefined
  }
}

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

/** The largest `n` the mock model makes. */
export const MAX_N = 16
/** The largest `max_tokens` the mock accepts (the mock model's context length). */
export const MAX_TOKENS = 4096
/** The most alternatives per token the mock model knows (`logprobs` / `top_logprobs`). */
export const MAX_LOGPROBS = 20

/** The request fields completions and chat completions share, as their generated Schemas type them. */
export interface GenerationFields {
  readonly stream?: boolean | null | undefined
  readonly stream_options?: { readonly include_usage?: boolean | null | undefined } | null | undefined
  readonly max_tokens?: number | null | undefined
  readonly min_tokens?: number | null | undefined
  readonly n?: number | null | undefined
  readonly stop?: ReadonlyArray<string> | null | undefined
  readonly seed?: number | ReadonlyArray<number> | null | undefined
}

/**
 * Reads the fields common to completions and chat completions, with the mock model's rules on them (`n` from 1 to
 * {@link MAX_N}). `model` is checked by the router. `ignore_eos`, which Friendli's servers take though the
 * description does not list it, is read when it is a boolean.
 */
export const readGeneration = (c: Checker<GenerationFields>, model: string): GenerationParams => {
  const req = c.request
  const stream = req.stream ?? false
  const streamOptions = req.stream_options ?? undefined
  if (streamOptions !== undefined && !stream) {
    c.issue(["stream_options"], "stream_options can only be used when stream is true", "value_error", streamOptions)
  }
  const includeUsage = streamOptions?.include_usage === true
  const maxTokens = c.atMost("max_tokens", req.max_tokens, MAX_TOKENS, "the mock model's context length")
  const minTokens = c.atMost("min_tokens", req.min_tokens, MAX_TOKENS, "the mock model's context length") ?? 0
  if (maxTokens !== undefined && minTokens > maxTokens) {
    c.issue(["min_tokens"], "min_tokens must be less than or equal to max_tokens", "value_error", minTokens)
  }
  const choices = "the number of choices the mock model makes"
  c.atLeast("n", req.n, 1, choices)
  const n = Math.max(1, c.atMost("n", req.n, MAX_N, choices) ?? 1)
  const stop = req.stop ?? []
  const extra = (req as { readonly ignore_eos?: unknown }).ignore_eos
  const ignoreEos = typeof extra === "boolean" ? extra : false
  let seeds: ReadonlyArray<number> | undefined
  const seed = req.seed ?? undefined
  if (typeof seed === "number") seeds = Array.from({ length: n }, (_, i) => seed + i)
  else if (seed !== undefined) {
    if (seed.length !== n) {
      c.issue(["seed"], `seed must have one value per choice (n = ${n}), got ${seed.length}`, "value_error", seed)
    } else seeds = seed
  }
  return { model, stream, includeUsage, maxTokens, minTokens, n, seeds, stop, ignoreEos }
}
