/**
 * Decoded chunks -> provider-neutral parts: choice 0's reasoning, text and tool input opened, streamed and closed
 * (`*-start`, `*-delta`, `*-end`), one `tool-call` with the whole arguments once the choice finishes, a built-in
 * tool's `tool_status` events as a provider-executed `tool-call` and `tool-result`, a `response-metadata` part
 * first and a `finish` part last. Every choice (with `n > 1`) is folded by the decoder's accumulator; the others
 * are given in the finish part. Each AI provider translates these parts into its own.
 */
import { ChatCompletionStream, CompletionStream } from "@friendli-stream/stream"
import { type Finish, finishOf } from "./finish.ts"
import { type Usage, usageOf } from "./usage.ts"

/**
 * What the parts are read from: a chat or completion chunk (strict and compatible chunks alike).
 *
 * @since 0.3.0
 */
export interface ChunkLike {
  readonly id?: string | null | undefined
  readonly model?: string | null | undefined
  readonly created?: number | null | undefined
  readonly usage?: unknown
  readonly choices: ReadonlyArray<{
    readonly index: number
    readonly finish_reason?: string | null | undefined
    readonly logprobs?: unknown
    readonly text?: string | undefined
    readonly delta?:
      | {
          readonly content?: string | null | undefined
          readonly reasoning_content?: string | null | undefined
          readonly tool_calls?: ReadonlyArray<ToolCallDeltaLike> | null | undefined
        }
      | null
      | undefined
  }>
}

/**
 * One tool call's delta in a chunk.
 *
 * @since 0.3.0
 */
export interface ToolCallDeltaLike {
  readonly index?: number | null | undefined
  readonly id?: string | null | undefined
  readonly function?:
    | { readonly name?: string | null | undefined; readonly arguments?: string | null | undefined }
    | null
    | undefined
}

/**
 * A built-in tool's `tool_status` event, as the parts are read from it.
 *
 * @since 0.3.0
 */
export interface ToolStatusLike {
  readonly tool_call_id: string
  readonly name: string
  readonly status: string
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly result?: string | null | undefined
  readonly error?: { readonly type: string; readonly msg: string } | null | undefined
}

/**
 * A choice other than choice 0, as the accumulator folded it.
 *
 * @since 0.3.0
 */
export interface OtherChoice {
  readonly index: number
  readonly text: string
  readonly reasoning: string | null
  readonly finishReason: string | null
}

/**
 * The response's id, model and creation time, from its first chunk (or a whole response).
 *
 * @since 0.3.0
 */
export interface ResponseMetadata {
  readonly type: "response-metadata"
  readonly id?: string
  readonly modelId?: string
  readonly timestamp?: Date
}

/**
 * How a stream ended: the finish of choice 0, the usage, choice 0's logprobs (one entry a chunk that had them) and
 * the other choices.
 *
 * @since 0.3.0
 */
export interface FinishPart {
  readonly type: "finish"
  readonly finish: Finish
  readonly usage: Usage
  readonly logprobs: ReadonlyArray<unknown>
  readonly otherChoices: ReadonlyArray<OtherChoice>
}

/**
 * A part that opens or closes a block (reasoning, text, tool input) by its id.
 *
 * @since 0.3.0
 */
export interface Marker<T extends string> {
  readonly type: T
  readonly id: string
}

/**
 * A piece of a block's text.
 *
 * @since 0.3.0
 */
export interface Delta<T extends string> {
  readonly type: T
  readonly id: string
  readonly delta: string
}

/**
 * A provider-neutral stream part. `tool-call.input` is the arguments' JSON text (`"{}"` when none were streamed);
 * `tool-result.result` is the built-in tool's result parsed as JSON where it is JSON (its text where not, `null`
 * when it sent none), or `{ type, message }` when it failed.
 *
 * @since 0.3.0
 */
export type Part =
  | ResponseMetadata
  | Marker<"reasoning-start">
  | Delta<"reasoning-delta">
  | Marker<"reasoning-end">
  | Marker<"text-start">
  | Delta<"text-delta">
  | Marker<"text-end">
  | { readonly type: "tool-input-start"; readonly id: string; readonly name: string }
  | Delta<"tool-input-delta">
  | Marker<"tool-input-end">
  | {
      readonly type: "tool-call"
      readonly id: string
      readonly name: string
      readonly input: string
      readonly providerExecuted: boolean
    }
  | {
      readonly type: "tool-result"
      readonly id: string
      readonly name: string
      readonly result: unknown
      readonly isError: boolean
    }
  | FinishPart

/**
 * Arguments' JSON text parsed: `{}` for none, the text itself where it is not JSON (so that nothing is lost).
 *
 * @since 0.3.0
 */
export const parseArguments = (text: string): unknown => {
  if (text.trim() === "") return {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * A built-in tool's result parsed: JSON where it is JSON, its text where not, `null` when it sent none.
 *
 * @since 0.3.0
 */
export const parseResult = (text: string | null | undefined): unknown => {
  if (text === null || text === undefined) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * The metadata part of a chunk or response (a `created` of 0 or less is no time).
 *
 * @since 0.3.0
 */
export const metadataOf = (chunk: {
  readonly id?: string | null | undefined
  readonly model?: string | null | undefined
  readonly created?: number | null | undefined
}): ResponseMetadata => ({
  type: "response-metadata",
  ...(chunk.id ? { id: chunk.id } : {}),
  ...(chunk.model ? { modelId: chunk.model } : {}),
  ...(typeof chunk.created === "number" && chunk.created > 0 ? { timestamp: new Date(chunk.created * 1000) } : {}),
})

/**
 * The parts of a built-in tool's status: a provider-executed `tool-call` when it starts, a `tool-result` when it
 * ends or fails, none for the steps between. `names` maps Friendli's tool type to the caller's name of it.
 *
 * @since 0.3.0
 */
export const toolStatusParts = (status: ToolStatusLike, names: ReadonlyMap<string, string>): Array<Part> => {
  const id = status.tool_call_id
  const name = names.get(status.name) ?? status.name
  switch (status.status) {
    case "STARTED": {
      const input = JSON.stringify(Object.fromEntries(status.parameters.map((p) => [p.name, p.value])))
      return [{ type: "tool-call", id, name, input, providerExecuted: true }]
    }
    case "ENDED":
      return [{ type: "tool-result", id, name, result: parseResult(status.result), isError: false }]
    case "ERRORED": {
      const result = status.error ? { type: status.error.type, message: status.error.msg } : "The tool failed."
      return [{ type: "tool-result", id, name, result, isError: true }]
    }
    default:
      return []
  }
}

interface OpenToolCall {
  readonly id: string
  readonly name: string
  args: string
  ended: boolean
}

/**
 * The part state machine of one stream: `chunk` gives the parts of each chunk, `finish` those that close a stream
 * that ended properly (open reasoning, text and tool input closed, then the `finish` part).
 *
 * @since 0.3.0
 */
export class PartMachine {
  private readonly chat = ChatCompletionStream.accumulator()
  private readonly completion = CompletionStream.accumulator()
  private metadataSent = false
  private textOpen = false
  private reasoningOpen = false
  private reasoningCount = 0
  private readonly toolCalls = new Map<number, OpenToolCall>()
  private finishRaw: string | null | undefined = undefined
  private usage: unknown = undefined
  private readonly logprobs: Array<unknown> = []
  private readonly kind: "chat" | "completion"

  /** A machine for a chat stream (`delta`) or a completion stream (`text`). */
  constructor(kind: "chat" | "completion") {
    this.kind = kind
  }

  /** The parts of one chunk. */
  chunk(chunk: ChunkLike): Array<Part> {
    const out: Array<Part> = []
    if (this.kind === "chat") this.chat.add(chunk as never)
    else this.completion.add(chunk as never)
    if (!this.metadataSent) {
      this.metadataSent = true
      out.push(metadataOf(chunk))
    }
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chunk.usage
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue
      if (choice.logprobs !== undefined && choice.logprobs !== null) this.logprobs.push(choice.logprobs)
      const delta = choice.delta
      const reasoning = delta?.reasoning_content
      if (reasoning) {
        if (!this.reasoningOpen) {
          this.reasoningOpen = true
          out.push({ type: "reasoning-start", id: `reasoning-${this.reasoningCount}` })
        }
        out.push({ type: "reasoning-delta", id: `reasoning-${this.reasoningCount}`, delta: reasoning })
      }
      const text = this.kind === "chat" ? delta?.content : choice.text
      if (text) {
        this.closeReasoning(out)
        if (!this.textOpen) {
          this.textOpen = true
          out.push({ type: "text-start", id: "text-0" })
        }
        out.push({ type: "text-delta", id: "text-0", delta: text })
      }
      for (const call of delta?.tool_calls ?? []) this.toolCallDelta(call, out)
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
        this.finishRaw = choice.finish_reason
        this.endToolCalls(out)
      }
    }
    return out
  }

  /** The parts that end a stream that ended properly. */
  finish(): Array<Part> {
    const out: Array<Part> = []
    this.closeReasoning(out)
    if (this.textOpen) out.push({ type: "text-end", id: "text-0" })
    this.endToolCalls(out)
    out.push({
      type: "finish",
      finish: finishOf(this.finishRaw),
      usage: usageOf(this.usage),
      logprobs: this.logprobs,
      otherChoices: this.otherChoices(),
    })
    return out
  }

  private toolCallDelta(call: ToolCallDeltaLike, out: Array<Part>) {
    const index = call.index ?? 0
    let open = this.toolCalls.get(index)
    if (open === undefined || open.ended) {
      this.closeReasoning(out)
      open = { id: call.id ?? `call_${index}`, name: call.function?.name ?? "", args: "", ended: false }
      this.toolCalls.set(index, open)
      out.push({ type: "tool-input-start", id: open.id, name: open.name })
    }
    const args = call.function?.arguments
    if (args) {
      open.args += args
      out.push({ type: "tool-input-delta", id: open.id, delta: args })
    }
  }

  private endToolCalls(out: Array<Part>) {
    for (const call of this.toolCalls.values()) {
      if (call.ended) continue
      call.ended = true
      out.push({ type: "tool-input-end", id: call.id })
      const input = call.args === "" ? "{}" : call.args
      out.push({ type: "tool-call", id: call.id, name: call.name, input, providerExecuted: false })
    }
  }

  private closeReasoning(out: Array<Part>) {
    if (!this.reasoningOpen) return
    this.reasoningOpen = false
    out.push({ type: "reasoning-end", id: `reasoning-${this.reasoningCount}` })
    this.reasoningCount++
  }

  /** Choices 1.. as the accumulator folded them (with `n > 1`). */
  private otherChoices(): Array<OtherChoice> {
    const choices: Array<OtherChoice> =
      this.kind === "chat"
        ? this.chat.result().choices.map((c) => ({
            index: c.index,
            text: c.message.content ?? "",
            reasoning: c.message.reasoning_content ?? null,
            finishReason: c.finish_reason ?? null,
          }))
        : this.completion.result().choices.map((c) => ({
            index: c.index,
            text: c.text,
            reasoning: null,
            finishReason: c.finish_reason ?? null,
          }))
    return choices.filter((c) => c.index !== 0)
  }
}

/**
 * A stream's parts folded into a whole response's content, in order: the deltas of a run of text or reasoning
 * joined into one `text` / `reasoning` piece (made by `piece`), the parts `keep` accepts kept where they stood,
 * the rest dropped. Both providers fold their own parts with it, so that a whole response says what the stream said.
 *
 * @since 0.3.0
 */
export const foldDeltas = <P extends { readonly type: string }, Q>(
  parts: Iterable<P>,
  keep: (part: P) => boolean,
  piece: (type: "text" | "reasoning", text: string) => Q,
): Array<P | Q> => {
  const out: Array<P | Q> = []
  let text = ""
  let reasoning = ""
  const flush = () => {
    if (reasoning !== "") out.push(piece("reasoning", reasoning))
    if (text !== "") out.push(piece("text", text))
    reasoning = ""
    text = ""
  }
  for (const part of parts) {
    if (part.type === "text-delta") {
      if (reasoning !== "") flush()
      text += (part as unknown as { readonly delta: string }).delta
    } else if (part.type === "reasoning-delta") {
      if (text !== "") flush()
      reasoning += (part as unknown as { readonly delta: string }).delta
    } else if (keep(part)) {
      flush()
      out.push(part)
    }
  }
  flush()
  return out
}
