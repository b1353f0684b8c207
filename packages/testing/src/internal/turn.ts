/**
 * One assistant turn: reasoning (when asked for), then either text or function calls. The rule that chooses the
 * functions ({@link chooseFunctions}) and the planning of the calls ({@link planCalls}) serve every API (chat, with one
 * turn per choice, Responses and Messages); {@link planTurn} plans the single turn of Responses and Messages.
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
export interface TurnInput extends ToolChoiceInput {
  /** A hash of the whole request's conversation. */
  readonly promptKey: number
  /** Every input text, for `input_tokens`. */
  readonly inputText: string
  readonly maxTokens: number | undefined
  readonly stop: ReadonlyArray<string>
  /** Sentences of reasoning, or `undefined` for none. */
  readonly reasoningSentences: number | undefined
  /** At most this many reasoning tokens. */
  readonly reasoningBudget: number | undefined
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

/** A tool call's id as Friendli's servers write it: `call_` then 16 hex digits from `key`. */
export const callIdOf = (key: number): string => `call_${hex(key)}${hex(mixSeeds(key, 1))}`

/** The text of a content value: a string, or the `text` of each part of a list. */
export const textOf = (content: unknown): string => {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join(" ")
  }
  return ""
}

/** What decides which functions a turn calls. */
export interface ToolChoiceInput {
  readonly functions: ReadonlyArray<TurnFunction>
  readonly toolChoice: TurnToolChoice
  /** The last user text: `auto` and `required` call the functions it names. */
  readonly promptText: string
  readonly parallel: boolean
  /** The conversation ends with a tool result: answer with text. */
  readonly afterToolResult: boolean
}

/**
 * The functions a turn calls, for every API: `auto` calls each function whose name appears in the last user text;
 * `required` does the same but falls back to the first function; a named function is called; `none`, or a
 * conversation that ends with a tool result, calls nothing. Without parallel calls, only the first is kept.
 */
export const chooseFunctions = (input: ToolChoiceInput): ReadonlyArray<TurnFunction> => {
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

/** The calls of the chosen functions: arguments sampled from each one's parameters, deterministic in `key`. */
export const planCalls = (functions: ReadonlyArray<TurnFunction>, key: number): ReadonlyArray<TurnCall> =>
  functions.map((f, j): TurnCall => {
    const k = mixSeeds(key, 0xca11, j)
    const args = JSON.stringify(sample(f.parameters ?? { type: "object", properties: {} }, seeded(k)))
    return { id: callIdOf(k), name: f.name, arguments: args, fragments: fragment(args, k) }
  })

/** Plans a turn: the same request always gives the same turn. */
export const planTurn = (input: TurnInput): Turn => {
  const key = mixSeeds(input.promptKey, 0x7a11)
  const functions = chooseFunctions(input)
  const thought =
    input.reasoningSentences === undefined ? [] : pieces(reasoningText(input.promptText, input.reasoningSentences, key))
  const reasoning = input.reasoningBudget === undefined ? thought : thought.slice(0, input.reasoningBudget)
  const calls = planCalls(functions, key)
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
