/**
 * What the terminal shows: the live status line, the per-token logprobs table, the final usage.
 * Pure functions of what was measured, so they are tested without a terminal.
 */

/** The numbers behind the status line. */
export interface LiveStats {
  /** Milliseconds from sending the request to the first answer token, once it arrived. */
  readonly ttftMs: number | undefined
  /** Milliseconds from sending the request to the first reasoning token; undefined when there was none. */
  readonly reasoningMs?: number | undefined
  /** Tokens received so far, reasoning included. */
  readonly tokens: number
  /** How many of them were reasoning. */
  readonly reasoningTokens?: number | undefined
  /**
   * Milliseconds from the first token to the last one received so far: the time after the last token (the finish
   * and usage chunks, the end of the stream) is not generation, so it does not count.
   */
  readonly firstToLastMs: number
}

/** Tokens per second from the first token to the last (undefined until there is a second token). */
export const tokensPerSecond = (s: LiveStats): number | undefined =>
  s.tokens > 1 && s.firstToLastMs > 0 ? ((s.tokens - 1) * 1000) / s.firstToLastMs : undefined

const ms = (t: number | undefined): string => (t === undefined ? "…" : `${Math.round(t)} ms`)

/**
 * The one-line status: `TTFT 212 ms · 48.3 tok/s to the last token · 17 tokens`; with reasoning,
 * `first reasoning token 150 ms · first answer token 902 ms · 48.3 tok/s to the last token · 57 tokens (40 reasoning)`.
 */
export const statusLine = (s: LiveStats): string => {
  const times =
    s.reasoningMs === undefined
      ? s.ttftMs === undefined
        ? "TTFT …"
        : `TTFT ${ms(s.ttftMs)}`
      : `first reasoning token ${ms(s.reasoningMs)} · first answer token ${ms(s.ttftMs)}`
  const tps = tokensPerSecond(s)
  const reasoning = s.reasoningTokens ? ` (${s.reasoningTokens} reasoning)` : ""
  return `${times} · ${tps === undefined ? "… tok/s" : `${tps.toFixed(1)} tok/s to the last token`} · ${s.tokens} token${s.tokens === 1 ? "" : "s"}${reasoning}`
}

/** One row of the logprobs table: the sampled token, its log probability, the alternatives. */
export interface LogprobRow {
  readonly token: string
  readonly logprob: number
  readonly top: ReadonlyArray<{ readonly token: string; readonly logprob: number }>
}

/** Shows a token so that spaces and line ends are visible: `" the"` → `␣the`. */
export const visibleToken = (t: string): string => t.replace(/ /g, "␣").replace(/\n/g, "⏎").replace(/\t/g, "⇥")

const pad = (s: string, width: number): string => s + " ".repeat(Math.max(0, width - [...s].length))

/**
 * The compact per-token table: token, logprob, probability, and the top k alternatives exactly as the server listed
 * them (`--logprobs k` asks for k; the sampled token is usually one of them, so it is not left out).
 */
export const logprobsTable = (rows: ReadonlyArray<LogprobRow>): string => {
  const tokenWidth = Math.min(16, Math.max(5, ...rows.map((r) => [...visibleToken(r.token)].length)))
  const header = `${pad("token", tokenWidth)}  logprob    prob  top alternatives`
  const lines = rows.map((r) => {
    const alternatives = r.top.map((a) => `${visibleToken(a.token)} ${a.logprob.toFixed(2)}`).join(", ")
    const prob = `${(Math.exp(r.logprob) * 100).toFixed(1)}%`
    return `${pad(visibleToken(r.token), tokenWidth)}  ${r.logprob.toFixed(3).padStart(7)}  ${prob.padStart(6)}  ${alternatives}`
  })
  return [header, ...lines].join("\n")
}

/** The closing usage line. */
export const usageLine = (u: {
  readonly prompt_tokens?: number | null | undefined
  readonly completion_tokens?: number | null | undefined
  readonly total_tokens?: number | null | undefined
}): string =>
  `usage: ${u.prompt_tokens ?? "?"} prompt + ${u.completion_tokens ?? "?"} completion = ${u.total_tokens ?? "?"} tokens`
