/**
 * Friendli's `finish_reason` -> one provider-neutral finish reason, the one table both AI providers translate from.
 */

/**
 * Why a choice stopped, in the words both AI SDKs share: `"unknown"` when the server gave no reason (`null`, absent,
 * or the `"null"` / `""` strings Friendli and compatible servers send for "not finished"), `"other"` for a reason
 * neither Friendli's description nor OpenAI's names.
 *
 * @since 0.3.0
 */
export type FinishReason = "stop" | "length" | "tool-calls" | "content-filter" | "other" | "unknown"

/**
 * A finish reason and the server's own word for it (`undefined` when it sent none).
 *
 * @since 0.3.0
 */
export interface Finish {
  /** The reason, in the providers' shared words. @since 0.3.0 */
  readonly unified: FinishReason
  /** What the server sent, kept so that nothing it said is lost. @since 0.3.0 */
  readonly raw: string | undefined
}

const TABLE: Readonly<Record<string, FinishReason>> = {
  // Friendli's description: `stop`, `length`, `tool_calls` (and the string `"null"` while streaming).
  stop: "stop",
  length: "length",
  tool_calls: "tool-calls",
  null: "unknown",
  "": "unknown",
  // OpenAI's (compatible servers).
  content_filter: "content-filter",
}

/**
 * The finish of a choice's `finish_reason`. A reason no description names (`eos_token`, …) is `"other"` with the
 * raw word kept, not guessed into `"stop"`.
 *
 * @since 0.3.0
 */
export const finishOf = (raw: string | null | undefined): Finish => {
  if (raw === null || raw === undefined) return { unified: "unknown", raw: undefined }
  return { unified: Object.hasOwn(TABLE, raw) ? (TABLE[raw] as FinishReason) : "other", raw }
}
