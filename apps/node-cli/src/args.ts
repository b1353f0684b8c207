/**
 * The command line: `friendli-demo [prompt] [flags]`, parsed with `node:util`'s `parseArgs`.
 */
import { parseArgs } from "node:util"

/** What the user asked for. */
export interface CliOptions {
  readonly prompt: string
  readonly chat: boolean
  readonly n: number
  /** Completions: top-k logprobs per token; chat: `top_logprobs` (0 shows the sampled token's only). */
  readonly logprobs: number | undefined
  readonly maxTokens: number
  readonly seed: number | undefined
  /** `temperature`, sent as given: the API schema's bounds are the client's to check. */
  readonly temperature: number | undefined
  /** `top_p`, sent as given (the API schema says from 0, exclusive, to 1, inclusive). */
  readonly topP: number | undefined
  readonly json: boolean
  /** Dedicated endpoint id (talks to `dedicated`). */
  readonly endpoint: string | undefined
  /** Serverless model code. */
  readonly model: string | undefined
  /** A container or any OpenAI-compatible server. */
  readonly baseUrl: string | undefined
  /** `--reasoning [effort]`: a chat completion with this `reasoning_effort`, its reasoning shown before the answer. */
  readonly reasoning: ReasoningEffort | undefined
  readonly help: boolean
}

/** The reasoning efforts Friendli's API knows (`reasoning_effort`). */
export const REASONING_EFFORTS = ["minimal", "low", "medium", "high", "xhigh", "max", "ultracode"] as const

/** One of {@link REASONING_EFFORTS}. */
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number]

const isEffort = (s: string | undefined): s is ReasoningEffort =>
  (REASONING_EFFORTS as ReadonlyArray<string | undefined>).includes(s)

/** The usage text. */
export const usage = `Usage: friendli-demo [prompt] [options]

Streams a completion to the terminal with live statistics. Without FRIENDLI_TOKEN (and without --base-url) it
starts a mock Friendli endpoint in-process; with it, it talks to the real API.

Options:
  --chat                 a chat completion instead of a plain completion
  -n, --n <count>        how many choices to generate (default 1)
  --logprobs <k>         show each token's log probability and its top k alternatives
  --max-tokens <count>   at most this many tokens, reasoning included (default 64; 200 with --reasoning)
  --seed <int>           a seed, for reproducible sampling
  --temperature <t>      the sampling temperature (lower is closer to greedy)
  --top-p <p>            nucleus sampling: keep the likeliest tokens up to this probability mass (0 < p ≤ 1)
  --reasoning [effort]   a chat completion that reasons first (effort: ${REASONING_EFFORTS.join(", ")};
                         default medium): the reasoning is shown dimmed, then the answer, with both timings
  --json                 print each chunk as one JSON line instead of text
  --endpoint <id>        a dedicated endpoint id (FRIENDLI_TOKEN needed)
  --model <code>         a serverless model code (default meta-llama-3.1-8b-instruct)
  --base-url <url>       a Friendli Container or any OpenAI-compatible server (FRIENDLI_TOKEN if it needs one)
  -h, --help             this text
`

/** A command line the program cannot run with; its message says what was wrong. */
export class UsageError extends Error {
  override readonly name = "UsageError"
}

const integer = (name: string, value: string | undefined, min: number): number | undefined => {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`--${name} takes a whole number ≥ ${min}, got "${value}"`)
  return n
}

const decimal = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === "" || !Number.isFinite(n)) throw new UsageError(`--${name} takes a number, got "${value}"`)
  return n
}

/** Parses the arguments after `node main.js`. Throws a {@link UsageError} naming the bad argument. */
export const parseCli = (argv: ReadonlyArray<string>): CliOptions => {
  let parsed: ReturnType<typeof parse>
  try {
    // `pnpm start -- flags` hands the `--` on; it separates pnpm's arguments from ours, not ours from the prompt.
    parsed = parse(withReasoningValue(argv[0] === "--" ? argv.slice(1) : argv))
  } catch (error) {
    throw new UsageError(parseArgsProblem(error))
  }
  const { values, positionals } = parsed
  const reasoning = values.reasoning
  if (reasoning !== undefined && !isEffort(reasoning)) {
    throw new UsageError(`--reasoning takes one of ${REASONING_EFFORTS.join(", ")}, got "${reasoning}"`)
  }
  if (values.endpoint !== undefined && values.model !== undefined) {
    throw new UsageError("--endpoint (dedicated) and --model (serverless) cannot be used together")
  }
  return {
    prompt: positionals.join(" ") || "Tell me about streaming inference in one paragraph.",
    chat: (values.chat ?? false) || reasoning !== undefined,
    n: integer("n", values.n, 1) ?? 1,
    logprobs: integer("logprobs", values.logprobs, 0),
    // a reasoning model needs room to think before it answers
    maxTokens: integer("max-tokens", values["max-tokens"], 1) ?? (reasoning === undefined ? 64 : 200),
    seed: integer("seed", values.seed, 0),
    temperature: decimal("temperature", values.temperature),
    topP: decimal("top-p", values["top-p"]),
    json: values.json ?? false,
    endpoint: values.endpoint,
    model: values.model,
    baseUrl: values["base-url"],
    reasoning,
    help: values.help ?? false,
  }
}

/**
 * `--reasoning` takes an optional value, which `parseArgs` cannot express: a bare `--reasoning` becomes
 * `--reasoning=medium`, and `--reasoning high` (an effort name next) `--reasoning=high`.
 */
const withReasoningValue = (argv: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== "--reasoning") out.push(argv[i]!)
    else if (isEffort(argv[i + 1])) out.push(`--reasoning=${argv[++i]}`)
    else out.push("--reasoning=medium")
  }
  return out
}

/**
 * What `parseArgs` refused, in our words: its own text quotes unevenly and advises a `--` that clashes with the
 * one `pnpm start --` takes.
 */
const parseArgsProblem = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { readonly code?: unknown } | null)?.code
  const flag = /'(-[^',\s]*)/.exec(message)?.[1]
  const long = /(--[\w-]+)/.exec(message)?.[1] ?? flag
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag !== undefined) return `unknown option ${flag}`
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && long !== undefined) {
    return /argument missing/.test(message) ? `${long} needs a value` : `${long} takes no value`
  }
  return message
}

const parse = (argv: ReadonlyArray<string>) =>
  parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      chat: { type: "boolean" },
      n: { type: "string", short: "n" },
      logprobs: { type: "string" },
      "max-tokens": { type: "string" },
      seed: { type: "string" },
      temperature: { type: "string" },
      "top-p": { type: "string" },
      json: { type: "boolean" },
      endpoint: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      reasoning: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  })
