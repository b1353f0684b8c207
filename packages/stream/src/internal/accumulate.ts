/**
 * Folding chunks into the final response, per choice `index`: text or content concatenated, reasoning
 * (`delta.reasoning_content`) concatenated into `message.reasoning_content`, token ids collected, logprobs arrays
 * appended (never overwritten), the last `finish_reason`, the last non-null `usage`, and chat tool calls merged by
 * their `index` with `arguments` concatenated.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { ToolInputError } from "../StreamError.ts"
import { reasoningOf } from "./reasoning.ts"

/** Token usage as servers send it (extra counters kept). */
export interface UsageLike {
  readonly prompt_tokens?: number | null | undefined
  readonly completion_tokens?: number | null | undefined
  readonly total_tokens?: number | null | undefined
  readonly [key: string]: unknown
}

interface ChunkHeader {
  readonly id?: string | null | undefined
  readonly model?: string | null | undefined
  readonly created?: number | null | undefined
  readonly usage?: UsageLike | null | undefined
}

/** The shape of a completion chunk the accumulator reads (strict and compatible chunks both fit). */
export interface CompletionChunkLike extends ChunkHeader {
  readonly choices: ReadonlyArray<{
    readonly index: number
    readonly text: string
    readonly token?: number | null | undefined
    readonly finish_reason?: string | null | undefined
    readonly logprobs?:
      | {
          readonly text_offset?: ReadonlyArray<number> | null | undefined
          readonly token_logprobs?: ReadonlyArray<number | null> | null | undefined
          readonly tokens?: ReadonlyArray<string> | null | undefined
          readonly top_logprobs?: ReadonlyArray<{ readonly [token: string]: unknown } | null> | null | undefined
        }
      | null
      | undefined
  }>
}

/** Log probabilities of a finished completion choice, appended across chunks. */
export interface CompletionLogprobs {
  text_offset: Array<number>
  token_logprobs: Array<number | null>
  tokens: Array<string>
  top_logprobs: Array<{ readonly [token: string]: unknown } | null>
}

/** One choice of a finished completion. */
export interface CompletionChoice {
  index: number
  text: string
  tokens: Array<number>
  finish_reason: string | null
  logprobs: CompletionLogprobs | null
}

/** A finished completion. */
export interface Completion {
  id: string | undefined
  object: "text_completion"
  model: string | undefined
  created: number | undefined
  choices: Array<CompletionChoice>
  usage: UsageLike | null
}

/** The shape of a chat chunk the accumulator reads (strict and compatible chunks both fit). */
export interface ChatCompletionChunkLike extends ChunkHeader {
  readonly choices: ReadonlyArray<{
    readonly index: number
    readonly delta?:
      | {
          readonly role?: string | null | undefined
          readonly content?: string | null | undefined
          readonly refusal?: string | null | undefined
          /** The reasoning text, read through `reasoningOf` (the generated types do not declare it yet). */
          readonly reasoning_content?: string | null | undefined
          readonly tool_calls?:
            | ReadonlyArray<{
                readonly index: number
                readonly id?: string | null | undefined
                readonly type?: string | null | undefined
                readonly function?:
                  | { readonly name?: string | null | undefined; readonly arguments?: string | null | undefined }
                  | null
                  | undefined
              }>
            | null
            | undefined
        }
      | null
      | undefined
    readonly finish_reason?: string | null | undefined
    readonly logprobs?: { readonly [key: string]: unknown } | null | undefined
  }>
}

/** A tool call of a finished chat message. */
export interface ToolCall {
  index: number
  id: string | undefined
  type: string
  function: { name: string; arguments: string }
}

/** The message of a finished chat choice. */
export interface ChatMessage {
  role: string
  content: string | null
  refusal: string | null
  /** The reasoning deltas (`delta.reasoning_content`) concatenated; `null` when the model sent none. */
  reasoning_content: string | null
  tool_calls: Array<ToolCall>
}

/** One choice of a finished chat completion. */
export interface ChatChoice {
  index: number
  message: ChatMessage
  finish_reason: string | null
  logprobs: { content: Array<unknown> | null; refusal: Array<unknown> | null } | null
}

/** A finished chat completion. */
export interface ChatCompletion {
  id: string | undefined
  object: "chat.completion"
  model: string | undefined
  created: number | undefined
  choices: Array<ChatChoice>
  usage: UsageLike | null
}

const appendAll = <T>(into: Array<T>, from: ReadonlyArray<T> | null | undefined): void => {
  if (from) for (let i = 0; i < from.length; i++) into.push(from[i] as T)
}

abstract class Base<C extends ChunkHeader, R> {
  protected id: string | undefined = undefined
  protected model: string | undefined = undefined
  protected created: number | undefined = undefined
  protected usage: UsageLike | null = null

  /** Adds one chunk; returns the accumulator. */
  add(chunk: C): this {
    if (this.id === undefined && chunk.id) this.id = chunk.id
    if (this.model === undefined && chunk.model) this.model = chunk.model
    if (this.created === undefined && chunk.created) this.created = chunk.created
    if (chunk.usage != null) this.usage = chunk.usage
    this.addChoices(chunk)
    return this
  }

  protected abstract addChoices(chunk: C): void

  /** The response folded so far. */
  abstract result(): R
}

const byIndex = <T extends { index: number }>(m: Map<number, T>): Array<T> =>
  [...m.values()].sort((a, b) => a.index - b.index)

/** Accumulates completion chunks. */
export class CompletionAccumulator extends Base<CompletionChunkLike, Completion> {
  private readonly choices = new Map<number, CompletionChoice>()

  protected addChoices(chunk: CompletionChunkLike): void {
    for (const c of chunk.choices) {
      let acc = this.choices.get(c.index)
      if (acc === undefined) {
        acc = { index: c.index, text: "", tokens: [], finish_reason: null, logprobs: null }
        this.choices.set(c.index, acc)
      }
      acc.text += c.text
      if (typeof c.token === "number") acc.tokens.push(c.token)
      if (c.finish_reason != null) acc.finish_reason = c.finish_reason
      const lp = c.logprobs
      if (lp != null) {
        if (acc.logprobs === null) acc.logprobs = { text_offset: [], token_logprobs: [], tokens: [], top_logprobs: [] }
        const into = acc.logprobs
        appendAll(into.text_offset, lp.text_offset)
        appendAll(into.token_logprobs, lp.token_logprobs)
        appendAll(into.tokens, lp.tokens)
        appendAll(into.top_logprobs, lp.top_logprobs)
      }
    }
  }

  result(): Completion {
    return {
      id: this.id,
      object: "text_completion",
      model: this.model,
      created: this.created,
      choices: byIndex(this.choices),
      usage: this.usage,
    }
  }
}

interface ChatChoiceState extends ChatChoice {
  readonly calls: Map<number, ToolCall>
}

/** Accumulates chat completion chunks. */
export class ChatCompletionAccumulator extends Base<ChatCompletionChunkLike, ChatCompletion> {
  private readonly choices = new Map<number, ChatChoiceState>()

  protected addChoices(chunk: ChatCompletionChunkLike): void {
    for (const c of chunk.choices) {
      let acc = this.choices.get(c.index)
      if (acc === undefined) {
        acc = {
          index: c.index,
          message: { role: "assistant", content: null, refusal: null, reasoning_content: null, tool_calls: [] },
          finish_reason: null,
          logprobs: null,
          calls: new Map(),
        }
        this.choices.set(c.index, acc)
      }
      const d = c.delta
      if (d != null) {
        const m = acc.message
        if (d.role) m.role = d.role
        if (typeof d.content === "string") m.content = (m.content ?? "") + d.content
        if (typeof d.refusal === "string") m.refusal = (m.refusal ?? "") + d.refusal
        const reasoning = reasoningOf(d)
        if (reasoning !== undefined) m.reasoning_content = (m.reasoning_content ?? "") + reasoning
        if (d.tool_calls) {
          for (const t of d.tool_calls) {
            let call = acc.calls.get(t.index)
            if (call === undefined) {
              call = { index: t.index, id: undefined, type: "function", function: { name: "", arguments: "" } }
              acc.calls.set(t.index, call)
            }
            if (t.id) call.id = t.id
            if (t.type) call.type = t.type
            if (t.function?.name && call.function.name === "") call.function.name = t.function.name
            if (t.function?.arguments) call.function.arguments += t.function.arguments
          }
        }
      }
      if (c.finish_reason != null) acc.finish_reason = c.finish_reason
      const lp = c.logprobs
      if (lp != null) {
        if (acc.logprobs === null) acc.logprobs = { content: null, refusal: null }
        const into = acc.logprobs
        for (const key of ["content", "refusal"] as const) {
          const items = lp[key]
          if (Array.isArray(items)) {
            const list = into[key] ?? []
            into[key] = list
            appendAll(list, items)
          }
        }
      }
    }
  }

  result(): ChatCompletion {
    return {
      id: this.id,
      object: "chat.completion",
      model: this.model,
      created: this.created,
      choices: byIndex(this.choices).map(({ calls, ...choice }) => ({
        ...choice,
        message: { ...choice.message, tool_calls: byIndex(calls) },
      })),
      usage: this.usage,
    }
  }
}

/** Runs a stream into a fresh accumulator and returns its result. */
export const runAccumulate = <C, R, E, Env, A extends { add(c: C): A; result(): R }>(
  self: Stream.Stream<C, E, Env>,
  Make: new () => A,
): Effect.Effect<R, E, Env> =>
  Effect.suspend(() =>
    Effect.map(
      Stream.runFold(
        self,
        () => new Make(),
        (acc: A, c: C) => acc.add(c),
      ),
      (acc) => acc.result(),
    ),
  )

/**
 * Runs a stream into a fresh accumulator whose `add` may throw `ToolInputError` (the Responses and Messages
 * accumulators): that failure ends the stream and becomes the Effect's typed failure.
 */
export const runAccumulateChecked = <C, R, E, Env, A extends { add(c: C): A; result(): R }>(
  self: Stream.Stream<C, E, Env>,
  Make: new () => A,
): Effect.Effect<R, E | ToolInputError, Env> =>
  Effect.suspend(() =>
    Effect.map(
      Stream.runFoldEffect(
        self,
        () => new Make(),
        (acc: A, c: C): Effect.Effect<A, ToolInputError> => {
          try {
            return Effect.succeed(acc.add(c))
          } catch (e) {
            return e instanceof ToolInputError ? Effect.fail(e) : Effect.die(e)
          }
        },
      ),
      (acc) => acc.result(),
    ),
  )
