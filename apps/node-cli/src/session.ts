/**
 * One streamed request, shown as it arrives: the text on stdout, a live status line on stderr (on a terminal),
 * then the logprobs table, the other choices and the usage. Also `--json`: one chunk per line on stdout.
 */
import type { PromiseClient, StreamHandle } from "@friendli-stream/node"
import type { CliOptions } from "./args.ts"
import { type LiveStats, type LogprobRow, logprobsTable, statusLine, usageLine } from "./render.ts"

/** Where the session writes; a terminal gets the live status line. */
export interface Output {
  /** On a terminal, the reasoning is shown dimmed. */
  readonly stdout: { write(s: string): unknown; readonly isTTY?: boolean | undefined }
  readonly stderr: {
    write(s: string): unknown
    readonly isTTY?: boolean | undefined
    readonly rows?: number | undefined
  }
  readonly now: () => number
}

/** A chunk of either kind, as far as the session reads it. */
interface AnyChunk {
  readonly choices: ReadonlyArray<{
    readonly index: number
    readonly text?: string
    readonly delta?:
      | {
          readonly content?: string | null | undefined
          /** Friendli's (and vLLM's) reasoning delta. */
          readonly reasoning_content?: string | null | undefined
          /** The same, as some other OpenAI-compatible servers name it. */
          readonly reasoning?: string | null | undefined
        }
      | null
      | undefined
    readonly logprobs?: unknown
  }>
  readonly usage?: {
    prompt_tokens?: number | null
    completion_tokens?: number | null
    total_tokens?: number | null
  } | null
}

/** The rows of a chunk's logprobs, completions or chat alike. */
const rowsOf = (logprobs: unknown): Array<LogprobRow> => {
  if (typeof logprobs !== "object" || logprobs === null) return []
  const l = logprobs as {
    tokens?: ReadonlyArray<string>
    token_logprobs?: ReadonlyArray<number | null>
    top_logprobs?: ReadonlyArray<Record<string, number> | null>
    content?: ReadonlyArray<{
      token: string
      logprob: number
      top_logprobs?: ReadonlyArray<{ token: string; logprob: number }>
    }> | null
  }
  if (Array.isArray(l.content)) {
    return l.content.map((c) => ({ token: c.token, logprob: c.logprob, top: c.top_logprobs ?? [] }))
  }
  return (l.tokens ?? []).map((token, i) => ({
    token,
    logprob: l.token_logprobs?.[i] ?? Number.NaN,
    top: Object.entries(l.top_logprobs?.[i] ?? {}).map(([t, logprob]) => ({ token: t, logprob })),
  }))
}

/** Starts the request the options describe. */
export const startStream = (
  client: PromiseClient,
  model: string,
  o: CliOptions,
  signal: AbortSignal,
): StreamHandle<AnyChunk, unknown> => {
  const common = {
    model,
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: o.maxTokens,
    n: o.n,
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
    ...(o.topP === undefined ? {} : { top_p: o.topP }),
  }
  if (o.chat) {
    const request = {
      ...common,
      messages: [{ role: "user" as const, content: o.prompt }],
      ...(o.logprobs === undefined ? {} : { logprobs: true, top_logprobs: o.logprobs }),
      // the reasoning parsed out of the answer into reasoning_content
      ...(o.reasoning === undefined ? {} : { reasoning_effort: o.reasoning, parse_reasoning: true }),
    }
    return client.chat.stream(request, { signal }) as StreamHandle<AnyChunk, unknown>
  }
  return client.completions.stream(
    { ...common, prompt: o.prompt, ...(o.logprobs === undefined ? {} : { logprobs: o.logprobs }) },
    { signal },
  ) as StreamHandle<AnyChunk, unknown>
}

/** Reads the stream to its end, showing it as it arrives. Throws what the stream throws. */
export const showStream = async (handle: AsyncIterable<AnyChunk>, o: CliOptions, out: Output): Promise<void> => {
  const started = out.now()
  let firstAt: number | undefined
  let lastAt: number | undefined
  let reasoningAt: number | undefined
  let answerAt: number | undefined
  let tokens = 0
  let reasoningTokens = 0
  let usage: AnyChunk["usage"]
  const texts = new Map<number, string>()
  const rows: Array<LogprobRow> = []
  const live = out.stderr.isTTY === true && !o.json
  const stats = (): LiveStats => ({
    ttftMs: answerAt === undefined ? undefined : answerAt - started,
    reasoningMs: reasoningAt === undefined ? undefined : reasoningAt - started,
    tokens,
    reasoningTokens,
    firstToLastMs: firstAt === undefined || lastAt === undefined ? 0 : lastAt - firstAt,
  })
  // choice 0's reasoning is shown before its answer: dimmed on a terminal, then a blank line
  const dim = out.stdout.isTTY === true
  let inReasoning = false
  const endReasoning = (): void => {
    if (!inReasoning) return
    inReasoning = false
    out.stdout.write(`${dim ? "\x1b[0m" : ""}\n\n`)
  }
  // On a terminal the status line sits on the bottom row, outside a scroll region that holds the text, so the
  // text streams above it and the two never overwrite each other.
  const height = out.stderr.rows ?? 0
  const bar = live && height > 2
  if (bar) out.stderr.write(`\n\x1b[1A\x1b7\x1b[1;${height - 1}r\x1b8`)
  let lastPaint = 0
  const paint = (force = false): void => {
    if (!bar) return
    const t = out.now()
    if (!force && t - lastPaint < 50) return
    lastPaint = t
    out.stderr.write(`\x1b7\x1b[${height};1H\x1b[2K\x1b[2m${statusLine(stats())}\x1b[0m\x1b8`)
  }
  const release = (): void => {
    if (bar) out.stderr.write(`\x1b7\x1b[r\x1b[${height};1H\x1b[2K\x1b8`)
  }

  try {
    for await (const chunk of handle) {
      if (o.json) out.stdout.write(`${JSON.stringify(chunk)}\n`)
      if (chunk.usage) usage = chunk.usage
      for (const choice of chunk.choices) {
        const text = choice.text ?? choice.delta?.content ?? ""
        const thought = choice.delta?.reasoning_content ?? choice.delta?.reasoning ?? ""
        if (text !== "" || thought !== "" || choice.logprobs) {
          lastAt = out.now()
          if (firstAt === undefined) firstAt = lastAt
          tokens++
          if (thought !== "") {
            reasoningTokens++
            if (reasoningAt === undefined) reasoningAt = lastAt
          } else if (answerAt === undefined) answerAt = lastAt
        }
        texts.set(choice.index, (texts.get(choice.index) ?? "") + text)
        if (choice.index === 0) {
          if (!o.json && thought !== "") {
            if (!inReasoning) out.stdout.write(dim ? "\x1b[2m" : "")
            inReasoning = true
            out.stdout.write(thought)
          }
          if (!o.json && text !== "") {
            endReasoning()
            out.stdout.write(text)
          }
          rows.push(...rowsOf(choice.logprobs))
        }
      }
      paint()
    }
  } finally {
    if (!o.json) endReasoning()
    release()
  }
  if (o.json) return
  out.stdout.write("\n")
  for (const [index, text] of [...texts].sort(([a], [b]) => a - b)) {
    if (index > 0) out.stdout.write(`\n── choice ${index} ──\n${text}\n`)
  }
  if (rows.length > 0) out.stdout.write(`\n${logprobsTable(rows)}\n`)
  out.stderr.write(`\n${statusLine(stats())}\n`)
  if (usage) out.stderr.write(`${usageLine(usage)}\n`)
}
