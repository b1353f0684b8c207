/** Stream timing: time to first token, inter-chunk gaps and tokens per second, from Effect's `Clock`. */

/** What the recorder reports. */
export interface Metrics {
  readonly chunks: number
  readonly tokens: number
  readonly timeToFirstTokenMs: number | undefined
  readonly interChunkGapsMs: ReadonlyArray<number>
  readonly maxGapMs: number | undefined
  readonly tokensPerSecond: number | undefined
  readonly durationMs: number
}

/** Counts the tokens a chunk carries: one per choice with text, content, a token id or tool-call arguments. */
export const defaultTokens = (item: unknown): number => {
  const choices = (item as { choices?: unknown } | null)?.choices
  if (!Array.isArray(choices)) return 0
  let n = 0
  for (const c of choices as Array<Record<string, unknown>>) {
    if (typeof c.token === "number" || (typeof c.text === "string" && c.text.length > 0)) n++
    else {
      const d = c.delta as Record<string, unknown> | null | undefined
      if (d != null && ((typeof d.content === "string" && d.content.length > 0) || Array.isArray(d.tool_calls))) n++
    }
  }
  return n
}

const ms = (nanos: bigint): number => Number(nanos) / 1e6

export class MetricsRecorder {
  private chunks = 0
  private tokens = 0
  private firstTokenAt: bigint | undefined = undefined
  private firstTokens = 0
  private lastTokenAt: bigint | undefined = undefined
  private lastChunkAt: bigint | undefined = undefined
  private readonly gaps: Array<number> = []

  private readonly startedAt: bigint

  constructor(startedAt: bigint) {
    this.startedAt = startedAt
  }

  record(now: bigint, tokens: number): void {
    this.chunks++
    if (this.lastChunkAt !== undefined) this.gaps.push(ms(now - this.lastChunkAt))
    this.lastChunkAt = now
    if (tokens > 0) {
      if (this.firstTokenAt === undefined) {
        this.firstTokenAt = now
        this.firstTokens = tokens
      }
      this.lastTokenAt = now
      this.tokens += tokens
    }
  }

  snapshot(now: bigint): Metrics {
    const first = this.firstTokenAt
    const last = this.lastTokenAt
    const span = first !== undefined && last !== undefined ? ms(last - first) : 0
    const after = this.tokens - this.firstTokens
    return {
      chunks: this.chunks,
      tokens: this.tokens,
      timeToFirstTokenMs: first === undefined ? undefined : ms(first - this.startedAt),
      interChunkGapsMs: this.gaps.slice(),
      maxGapMs: this.gaps.length === 0 ? undefined : Math.max(...this.gaps),
      tokensPerSecond: span > 0 && after > 0 ? (after * 1000) / span : undefined,
      durationMs: ms(now - this.startedAt),
    }
  }
}
