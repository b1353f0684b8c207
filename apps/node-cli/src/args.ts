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
  readonly json: boolean
  /** Dedicated endpoint id (talks to `dedicated`). */
  readonly endpoint: string | undefined
  /** Serverless model code. */
  readonly model: string | undefined
  /** A container or any OpenAI-compatible server. */
  readonly baseUrl: string | undefined
  readonly help: boolean
}

/** The usage text. */
export const usage = `Usage: friendli-demo [prompt] [options]

Streams a completion to the terminal with live statistics. Without FRIENDLI_TOKEN (and without --base-url) it
starts a mock Friendli endpoint in-process; with it, it talks to the real API.

Options:
  --chat                 a chat completion instead of a plain completion
  -n, --n <count>        how many choices to generate (default 1)
  --logprobs <k>         show each token's log probability and its top k alternatives
  --max-tokens <count>   at most this many tokens (default 64)
  --seed <int>           a seed, for reproducible sampling
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

/** Parses the arguments after `node main.js`. Throws a {@link UsageError} naming the bad argument. */
export const parseCli = (argv: ReadonlyArray<string>): CliOptions => {
  let parsed: ReturnType<typeof parse>
  try {
    // `pnpm start -- flags` hands the `--` on; it separates pnpm's arguments from ours, not ours from the prompt.
    parsed = parse(argv[0] === "--" ? argv.slice(1) : argv)
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  if (values.endpoint !== undefined && values.model !== undefined) {
    throw new UsageError("--endpoint (dedicated) and --model (serverless) cannot be used together")
  }
  return {
    prompt: positionals.join(" ") || "Tell me about streaming inference in one paragraph.",
    chat: values.chat ?? false,
    n: integer("n", values.n, 1) ?? 1,
    logprobs: integer("logprobs", values.logprobs, 0),
    maxTokens: integer("max-tokens", values["max-tokens"], 1) ?? 64,
    seed: integer("seed", values.seed, 0),
    json: values.json ?? false,
    endpoint: values.endpoint,
    model: values.model,
    baseUrl: values["base-url"],
    help: values.help ?? false,
  }
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
      json: { type: "boolean" },
      endpoint: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  })
