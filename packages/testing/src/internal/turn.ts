/**
 * One assistant turn of the Responses and Messages APIs: reasoning (when asked for), then either text or function
 * calls, decided by the same deterministic rule as chat (a function is called when its name appears in the last
 * user text; a forced choice calls that function; `none` answers with text).
 */
import { hashString, mixSeeds, seeded } from "./prng.ts"
import { reasoningText } from "./replies.ts"
import { sample } from "./schema-sample.ts"
import { fragment, type Generation, generate, pieces, tokenize } from "./tokens.ts"
import { isObject } from "./validate.ts"

/** A function the request offers. */
export interface TurnFunction {
  readonly name: string
  readonly parameters: unknown
}

/** `none`, `auto`, `required`, or one function by name. */
export type TurnToolChoice = "none" | "auto" | "required" | { readonly name: string }

/** What a turn depends on. */
export interface TurnInput {
  /** A hash of the whole request's conversation. */
  readonly promptKey: number
  /** The last user text, which chooses the reply's topic and the functions called. */
  readonly promptText: string
  /** Every input text, for `input_tokens`. */
  readonly inputText: string
  readonly maxTokens: number | undefined
  readonly stop: ReadonlyArray<string>
  /** Sentences of reasoning, or `undefined` for none. */
  readonly reasoningSentences: number | undefined
  /** At most this many reasoning tokens. */
  readonly reasoningBudget: number | undefined
  readonly functions: ReadonlyArray<TurnFunction>
  readonly toolChoice: TurnToolChoice
  readonly parallel: boolean
  /** The conversation ends with a tool result: answer with text. */
  readonly afterToolResult: boolean
}

/** One function call of a turn. */
export interface TurnCall {
  readonly id: string
  readonly name: string
  readonly arguments: string
  readonly fragments: ReadonlyArray<string>
}

/** The planned turn. */
export interface Turn {
  readonly key: number
  /** The reasoning tokens' texts (empty without reasoning). */
  readonly reasoning: ReadonlyArray<string>
  /** The answer (empty tokens when the turn calls functions). */
  readonly gen: Generation
  readonly calls: ReadonlyArray<TurnCall>
  /** `stop` (ended by itself), `length` (hit the token limit) or `tool_calls`. */
  readonly finish: "stop" | "length" | "tool_calls"
  readonly inputTokens: number
  readonly outputTokens: number
}

const hex = (n: number): string => n.toString(16).padStart(8, "0")

/** A deterministic id: `prefix` then 24 hex digits from `key`. */
export const idOf = (prefix: string, key: number): string =>
  `${prefix}${hex(key)}${hex(mixSeeds(key, 1))}${hex(mixSeeds(key, 2))}`

/** The text of a content value: a string, or the `text` of each part of a list. */
export const textOf = (content: unknown): string => {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join(" ")
  }
  return ""
}

const chosen = (input: TurnInput): ReadonlyArray<TurnFunction> => {
  if (input.functions.length === 0 || input.toolChoice === "none" || input.afterToolResult) return []
  let out: ReadonlyArray<TurnFunction>
  if (typeof input.toolChoice === "object") {
    const name = input.toolChoice.name
    out = input.functions.filter((f) => f.name === name)
  } else {
    const text = input.promptText.toLowerCase()
    out = input.functions.filter((f) => text.includes(f.name.toLowerCase()))
    if (out.length === 0 && input.toolChoice === "required") out = input.functions.slice(0, 1)
  }
  return input.parallel ? out : out.slice(0, 1)
}

/** Plans a turn: the same request always gives the same turn. */
export const planTurn = (input: TurnInput): Turn => {
  const key = mixSeeds(input.promptKey, 0x7a11)
  const functions = chosen(input)
  const thought =
    input.reasoningSentences === undefined ? [] : pieces(reasoningText(input.promptText, input.reasoningSentences, key))
  const reasoning = input.reasoningBudget === undefined ? thought : thought.slice(0, input.reasoningBudget)
  const calls = functions.map((f, j): TurnCall => {
    const k = mixSeeds(key, 0xca11, j)
    const args = JSON.stringify(sample(f.parameters ?? { type: "object", properties: {} }, seeded(k)))
    return { id: idOf("call_", k), name: f.name, arguments: args, fragments: fragment(args, k) }
  })
  const gen = generate({
    promptKey: input.promptKey,
    promptText: input.promptText,
    seed: undefined,
    index: 0,
    maxTokens: input.maxTokens,
    minTokens: 0,
    ignoreEos: false,
    stop: input.stop,
    reasoning,
    chat: true,
    ...(calls.length > 0 ? { script: [] } : {}),
  })
  const finish = calls.length > 0 ? "tool_calls" : gen.finishReason
  const outputTokens = gen.reasoning.length + gen.tokens.length + calls.reduce((n, c) => n + c.fragments.length, 0)
  return {
    key,
    reasoning: gen.reasoning.map((t) => t.text),
    gen,
    calls,
    finish,
    inputTokens: tokenize(input.inputText).length + 3,
    outputTokens,
  }
}

/** A hash of any JSON value (the conversation). */
export const keyOf = (value: unknown): number => hashString(JSON.stringify(value) ?? "")
