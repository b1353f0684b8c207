/**
 * The OpenTelemetry GenAI semantic conventions the client reports in: attribute and metric names, units, bucket
 * boundaries (all written once here, for the Effect and the Promise paths), and what one request's items tell
 * (response id and model, finish reasons, token usage).
 *
 * Conventions: https://github.com/open-telemetry/semantic-conventions-genai (`docs/gen-ai/gen-ai-metrics.md`,
 * `gen-ai-spans.md`).
 */

/** The span and metric attribute names. */
export const Attr = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  responseId: "gen_ai.response.id",
  responseModel: "gen_ai.response.model",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  responseTimeToFirstChunk: "gen_ai.response.time_to_first_chunk",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageReasoningOutputTokens: "gen_ai.usage.reasoning.output_tokens",
  tokenType: "gen_ai.token.type",
  serverAddress: "server.address",
  serverPort: "server.port",
  errorType: "error.type",
} as const

/**
 * `gen_ai.provider.name`: the conventions list well-known providers and allow a custom value for the others;
 * Friendli is not listed, so the client reports `friendli`.
 */
export const PROVIDER_NAME = "friendli"

/** The boundaries of the seconds histograms (operation duration, time to first chunk, time per output chunk). */
export const SECONDS_BOUNDARIES: ReadonlyArray<number> = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]

/** The boundaries of `gen_ai.client.token.usage`. */
export const TOKEN_BOUNDARIES: ReadonlyArray<number> = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
]

/** One client metric of the conventions: a histogram with its unit and explicit bucket boundaries. */
export interface MetricSpec {
  readonly name: string
  readonly unit: "s" | "{token}"
  readonly description: string
  readonly boundaries: ReadonlyArray<number>
}

/** The client metrics, by the key the client records them under. */
export const Metrics = {
  operationDuration: {
    name: "gen_ai.client.operation.duration",
    unit: "s",
    description: "GenAI operation duration.",
    boundaries: SECONDS_BOUNDARIES,
  },
  tokenUsage: {
    name: "gen_ai.client.token.usage",
    unit: "{token}",
    description: "Number of input and output tokens used.",
    boundaries: TOKEN_BOUNDARIES,
  },
  timeToFirstChunk: {
    name: "gen_ai.client.operation.time_to_first_chunk",
    unit: "s",
    description: "Time to receive the first chunk, from when the client issues the request.",
    boundaries: SECONDS_BOUNDARIES,
  },
  timePerOutputChunk: {
    name: "gen_ai.client.operation.time_per_output_chunk",
    unit: "s",
    description: "Time per output chunk, for each chunk after the first, from the end of the previous chunk.",
    boundaries: SECONDS_BOUNDARIES,
  },
} as const satisfies Record<string, MetricSpec>

/** A metric's key in {@link Metrics}. */
export type MetricKey = keyof typeof Metrics

/** Attribute values as both Effect and OpenTelemetry take them. */
export type AttributeValue = string | number | boolean | ReadonlyArray<string>

/** A set of attributes. */
export type Attributes = Readonly<Record<string, AttributeValue>>

/**
 * `gen_ai.operation.name` of an endpoint path: the conventions' `text_completion` and `chat`; transcriptions have no
 * well-known value and report `transcription`. `undefined`: not a GenAI operation (models, tokenize), not reported.
 */
export const operationOf = (path: string): string | undefined => {
  if (path.endsWith("/chat/completions") || path.endsWith("/responses") || path.endsWith("/messages")) return "chat"
  if (path.endsWith("/completions")) return "text_completion"
  if (path.endsWith("/audio/transcriptions")) return "transcription"
  return undefined
}

/** `server.address` and `server.port` of a base URL (the port its scheme's default when it names none). */
export const serverOf = (baseURL: string): Attributes => {
  try {
    const url = new (
      globalThis as unknown as { URL: new (u: string) => { hostname: string; port: string; protocol: string } }
    ).URL(baseURL)
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port)
    return { [Attr.serverAddress]: url.hostname.replace(/^\[|\]$/g, ""), [Attr.serverPort]: port }
  } catch {
    return {}
  }
}

/** `error.type` of a failure: the tagged error's `_tag` (`RateLimitError`, `StreamTruncated`, ...), else `_OTHER`. */
export const errorTypeOf = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const tag = (error as { readonly _tag?: unknown })._tag
    if (typeof tag === "string") return tag
  }
  return "_OTHER"
}

/** `error.type` of an operation the caller stopped (abort, `break`, interruption) before its end. */
export const CANCELLED = "cancelled"

/** What one response (its items, or its whole answer) told. */
export interface Observed {
  id: string | undefined
  model: string | undefined
  finishReasons: Array<string>
  inputTokens: number | undefined
  outputTokens: number | undefined
  reasoningTokens: number | undefined
}

/** An empty observation. */
export const emptyObserved = (): Observed => ({
  id: undefined,
  model: undefined,
  finishReasons: [],
  inputTokens: undefined,
  outputTokens: undefined,
  reasoningTokens: undefined,
})

type Obj = Readonly<Record<string, unknown>>
const isObj = (u: unknown): u is Obj => typeof u === "object" && u !== null
const num = (u: unknown): number | undefined => (typeof u === "number" && Number.isFinite(u) ? u : undefined)
const TERMINAL_STATUS = new Set(["completed", "incomplete", "failed", "cancelled"])

/**
 * Folds one item (a chat or completion chunk, a Responses or Messages event, or a whole non-streamed answer) into
 * `o`: the first id and model, every finish reason, and the last usage.
 */
export const observe = (o: Observed, item: unknown): void => {
  if (!isObj(item)) return
  const inner = isObj(item.response) ? item.response : isObj(item.message) ? item.message : item
  if (o.id === undefined && typeof inner.id === "string") o.id = inner.id
  if (o.model === undefined && typeof inner.model === "string") o.model = inner.model
  const choices = inner.choices
  if (Array.isArray(choices)) {
    for (const choice of choices) {
      if (isObj(choice) && typeof choice.finish_reason === "string") o.finishReasons.push(choice.finish_reason)
    }
  }
  const stop = inner.stop_reason ?? (isObj(item.delta) ? item.delta.stop_reason : undefined)
  if (typeof stop === "string") o.finishReasons.push(stop)
  if (typeof inner.status === "string" && TERMINAL_STATUS.has(inner.status) && inner !== item) {
    o.finishReasons.push(inner.status)
  } else if (inner.object === "response" && typeof inner.status === "string" && TERMINAL_STATUS.has(inner.status)) {
    o.finishReasons.push(inner.status)
  }
  const usage = isObj(inner.usage) ? inner.usage : isObj(item.usage) ? item.usage : undefined
  if (usage !== undefined) {
    const input = num(usage.prompt_tokens) ?? num(usage.input_tokens)
    const output = num(usage.completion_tokens) ?? num(usage.output_tokens)
    const details = isObj(usage.completion_tokens_details)
      ? usage.completion_tokens_details
      : isObj(usage.output_tokens_details)
        ? usage.output_tokens_details
        : undefined
    const reasoning = details === undefined ? undefined : num(details.reasoning_tokens)
    if (input !== undefined) o.inputTokens = input
    if (output !== undefined) o.outputTokens = output
    if (reasoning !== undefined) o.reasoningTokens = reasoning
  }
}

/** The span attributes of what a response told. */
export const responseAttributes = (o: Observed): Record<string, AttributeValue> => {
  const out: Record<string, AttributeValue> = {}
  if (o.id !== undefined) out[Attr.responseId] = o.id
  if (o.model !== undefined) out[Attr.responseModel] = o.model
  if (o.finishReasons.length > 0) out[Attr.responseFinishReasons] = o.finishReasons
  if (o.inputTokens !== undefined) out[Attr.usageInputTokens] = o.inputTokens
  if (o.outputTokens !== undefined) out[Attr.usageOutputTokens] = o.outputTokens
  if (o.reasoningTokens !== undefined) out[Attr.usageReasoningOutputTokens] = o.reasoningTokens
  return out
}
