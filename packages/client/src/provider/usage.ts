/**
 * Friendli's `usage` -> provider-neutral token counts, the one reading both AI providers translate from.
 */
import * as Predicate from "effect/Predicate"

/**
 * The token counts of a response. A count the server did not report is `undefined`; a derived count (uncached
 * input, text output) is given only when both counts it comes from were reported, never guessed from a missing
 * detail.
 *
 * @since 0.3.0
 */
export interface Usage {
  /** `prompt_tokens`. @since 0.3.0 */
  readonly inputTokens: number | undefined
  /** `prompt_tokens_details.cached_tokens`. @since 0.3.0 */
  readonly cachedInputTokens: number | undefined
  /** `prompt_tokens - cached_tokens`, when both were reported. @since 0.3.0 */
  readonly uncachedInputTokens: number | undefined
  /** `completion_tokens`. @since 0.3.0 */
  readonly outputTokens: number | undefined
  /** `completion_tokens_details.reasoning_tokens`. @since 0.3.0 */
  readonly reasoningTokens: number | undefined
  /** `completion_tokens - reasoning_tokens`, when both were reported. @since 0.3.0 */
  readonly textOutputTokens: number | undefined
  /** The server's `usage` object as it was sent (`undefined` when there was none). @since 0.3.0 */
  readonly raw: Readonly<Record<string, unknown>> | undefined
}

const count = (u: unknown): number | undefined => (typeof u === "number" && Number.isFinite(u) ? u : undefined)

const difference = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined ? undefined : a - b

/**
 * The token counts of a `usage` object (strict or compatible; anything that is not an object reads as no usage).
 *
 * @since 0.3.0
 */
export const usageOf = (raw: unknown): Usage => {
  const u = Predicate.isObject(raw) ? raw : {}
  const input = count(u.prompt_tokens)
  const output = count(u.completion_tokens)
  const cached = Predicate.isObject(u.prompt_tokens_details) ? count(u.prompt_tokens_details.cached_tokens) : undefined
  const reasoning = Predicate.isObject(u.completion_tokens_details)
    ? count(u.completion_tokens_details.reasoning_tokens)
    : undefined
  return {
    inputTokens: input,
    cachedInputTokens: cached,
    uncachedInputTokens: difference(input, cached),
    outputTokens: output,
    reasoningTokens: reasoning,
    textOutputTokens: difference(output, reasoning),
    raw: Predicate.isObject(raw) ? (raw as Readonly<Record<string, unknown>>) : undefined,
  }
}
