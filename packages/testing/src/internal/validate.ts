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

/** A generated request Schema (decoding needs no services). */
type Decoder = Schema.Top

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

/** What a generated request Schema says is wrong with a body: nothing, or one issue per wrong field. */
export const schemaIssues = (schema: Decoder, body: unknown): Array<ValidationIssue> => {
  const result = SchemaParser.decodeUnknownResult(schema as unknown as Schema.Decoder<unknown>, {
    errors: "all",
    onExcessProperty: "ignore",
    reportInput: true,
  })(body)
  return result._tag === "Success" ? [] : issuesOf(result.failure, [])
}

/**
 * The issues of a request: those of its Schema, then those of the mock's own rules on fields the Schema found no
 * fault with. Reads a body's fields, a null or absent one as `undefined`.
 */
export class Checker {
  readonly issues: Array<ValidationIssue>
  private readonly wrong: Set<string>

  constructor(
    readonly body: Json,
    schema: Decoder,
  ) {
    this.issues = schemaIssues(schema, body)
    this.wrong = new Set(this.issues.map((i) => String(i.loc[0])))
  }

  /** Records a rule's issue, unless the Schema already found the field wrong. */
  issue(loc: ReadonlyArray<string | number>, msg: string, type: string, input?: unknown): void {
    if (this.wrong.has(String(loc[0]))) return
    this.wrong.add(String(loc[0]))
    this.issues.push(input === undefined ? { loc, msg, type } : { loc, msg, type, input })
  }

  /** A field of the body; absent or null is `undefined`. */
  value(key: string): unknown {
    const v = this.body[key]
    return v === null ? undefined : v
  }

  number(key: string): number | undefined {
    const v = this.value(key)
    return typeof v === "number" ? v : undefined
  }

  boolean(key: string): boolean | undefined {
    const v = this.value(key)
    return typeof v === "boolean" ? v : undefined
  }

  string(key: string): string | undefined {
    const v = this.value(key)
    return typeof v === "string" ? v : undefined
  }

  array(key: string): ReadonlyArray<unknown> | undefined {
    const v = this.value(key)
    return Array.isArray(v) ? v : undefined
  }

  object(key: string): Json | undefined {
    const v = this.value(key)
    return isObject(v) ? v : undefined
  }

  /** A number field no larger than the mock model's limit `max`. */
  atMost(key: string, max: number, why: string): number | undefined {
    const v = this.number(key)
    if (v !== undefined && v > max) {
      this.issue([key], `Input should be less than or equal to ${max} (${why})`, "less_than_equal", v)
    }
    return v
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

/**
 * Reads the fields common to completions and chat completions, with the mock model's rules on them. `model` is
 * checked by the router.
 */
export const readGeneration = (c: Checker, model: string): GenerationParams => {
  const stream = c.boolean("stream") ?? false
  const streamOptions = c.object("stream_options")
  if (streamOptions !== undefined && !stream) {
    c.issue(["stream_options"], "stream_options can only be used when stream is true", "value_error", streamOptions)
  }
  const includeUsage = streamOptions?.include_usage === true
  const maxTokens = c.atMost("max_tokens", MAX_TOKENS, "the mock model's context length")
  const minTokens = c.atMost("min_tokens", MAX_TOKENS, "the mock model's context length") ?? 0
  if (maxTokens !== undefined && minTokens > maxTokens) {
    c.issue(["min_tokens"], "min_tokens must be less than or equal to max_tokens", "value_error", minTokens)
  }
  const n = c.atMost("n", MAX_N, "the most choices the mock model makes") ?? 1
  const stop = (c.array("stop") ?? []).filter((s): s is string => typeof s === "string")
  const ignoreEos = c.boolean("ignore_eos") ?? false
  let seeds: ReadonlyArray<number> | undefined
  const seed = c.value("seed")
  if (typeof seed === "number") seeds = Array.from({ length: n }, (_, i) => seed + i)
  else if (Array.isArray(seed)) {
    if (seed.length !== n) {
      c.issue(["seed"], `seed must have one value per choice (n = ${n}), got ${seed.length}`, "value_error", seed)
    } else seeds = seed as ReadonlyArray<number>
  }
  return { model, stream, includeUsage, maxTokens, minTokens, n, seeds, stop, ignoreEos }
}
