/**
 * Stream timing: time to first token (of reasoning, of the answer, of either), inter-chunk gaps and tokens per second,
 * from Effect's `Clock`.
 */
import { reasoningOf } from "./reasoning.ts"

/** What the recorder reports. */
export interface Metrics {
  /** The items that went through. @since 0.1.0 */
  readonly chunks: number
  /** Tokens of both kinds: `answerTokens + reasoningTokens`. @since 0.1.0 */
  readonly tokens: number
  /** Answer tokens (text, content, token ids, tool calls). @since 0.2.0 */
  readonly answerTokens: number
  /** Reasoning tokens (`delta.reasoning_content`). @since 0.2.0 */
  readonly reasoningTokens: number
  /** From the start to the first chunk with a token of either kind. @since 0.1.0 */
  readonly timeToFirstTokenMs: number | undefined
  /** From the start to the first chunk with an answer token; `undefined` when there was none. @since 0.2.0 */
  readonly timeToFirstAnswerTokenMs: number | undefined
  /** From the start to the first chunk with a reasoning token; `undefined` when there was none. @since 0.2.0 */
  readonly timeToFirstReasoningTokenMs: number | undefined
  /** The time between each chunk and the one before it. @since 0.1.0 */
  readonly interChunkGapsMs: ReadonlyArray<number>
  /** The longest gap. @since 0.1.0 */
  readonly maxGapMs: number | undefined
  /** Tokens after the first chunk with tokens, over the time from it to the last one. @since 0.1.0 */
  readonly tokensPerSecond: number | undefined
  /** From the start of the stream to its end. @since 0.1.0 */
  readonly durationMs: number
}

/** The choices of a chunk, or of the chunk a tool-assisted `{ _tag: "Chunk", chunk }` item holds. */
const choicesOf = (item: unknown): ReadonlyArray<Record<string, unknown>> | undefined => {
  const it = item as { choices?: unknown; _tag?: unknown; chunk?: unknown } | null
  const choices = it?._tag === "Chunk" ? (it.chunk as { choices?: unknown } | null)?.choices : it?.choices
  return Array.isArray(choices) ? (choices as ReadonlyArray<Record<string, unknown>>) : undefined
}

/** Counts the answer tokens a chunk carries: one per choice with text, content, a token id or tool calls. */
export const defaultTokens = (item: unknown): number => {
  const choices = choicesOf(item)
  if (choices === undefined) return 0
  let n = 0
  for (const c of choices) {
    if (typeof c.token === "number" || (typeof c.text === "string" && c.text.length > 0)) n++
    else {
      const d = c.delta as Record<string, unknown> | null | undefined
      if (d != null && ((typeof d.content === "string" && d.content.length > 0) || Array.isArray(d.tool_calls))) n++
    }
  }
  return n
}

/** Counts the reasoning tokens a chunk carries: one per choice whose delta has reasoning text. */
export const defaultReasoningTokens = (item: unknown): number => {
  const choices = choicesOf(item)
  if (choices === undefined) return 0
  let n = 0
  for (const c of choices) {
    const reasoning = reasoningOf(c.delta as object | null | undefined)
    if (reasoning !== undefined && reasoning.length > 0) n++
  }
  return n
}

const ms = (nanos: bigint): number => Number(nanos) / 1e6

export class MetricsRecorder {
  private chunks = 0
  private answerTokens = 0
  private reasoningTokens = 0
  private firstTokenAt: bigint | undefined = undefined
  private firstAnswerAt: bigint | undefined = undefined
  private firstReasoningAt: bigint | undefined = undefined
  private firstTokens = 0
  private lastTokenAt: bigint | undefined = undefined
  private lastChunkAt: bigint | undefined = undefined
  private readonly gaps: Array<number> = []

  private readonly startedAt: bigint

  constructor(startedAt: bigint) {
    this.startedAt = startedAt
  }

  record(now: bigint, answer: number, reasoning: number): void {
    this.chunks++
    if (this.lastChunkAt !== undefined) this.gaps.push(ms(now - this.lastChunkAt))
    this.lastChunkAt = now
    if (answer > 0) {
      if (this.firstAnswerAt === undefined) this.firstAnswerAt = now
      this.answerTokens += answer
    }
    if (reasoning > 0) {
      if (this.firstReasoningAt === undefined) this.firstReasoningAt = now
      this.reasoningTokens += reasoning
    }
    const tokens = answer + reasoning
    if (tokens > 0) {
      if (this.firstTokenAt === undefined) {
        this.firstTokenAt = now
        this.firstTokens = tokens
      }
      this.lastTokenAt = now
    }
  }

  snapshot(now: bigint): Metrics {
    const first = this.firstTokenAt
    const last = this.lastTokenAt
    const span = first !== undefined && last !== undefined ? ms(last - first) : 0
    const tokens = this.answerTokens + this.reasoningTokens
    const after = tokens - this.firstTokens
    const since = (at: bigint | undefined) => (at === undefined ? undefined : ms(at - this.startedAt))
    return {
      chunks: this.chunks,
      tokens,
      answerTokens: this.answerTokens,
      reasoningTokens: this.reasoningTokens,
      timeToFirstTokenMs: since(first),
      timeToFirstAnswerTokenMs: since(this.firstAnswerAt),
      timeToFirstReasoningTokenMs: since(this.firstReasoningAt),
      interChunkGapsMs: this.gaps.slice(),
      maxGapMs: this.gaps.length === 0 ? undefined : Math.max(...this.gaps),
      tokensPerSecond: span > 0 && after > 0 ? (after * 1000) / span : undefined,
      durationMs: ms(now - this.startedAt),
    }
  }
}
