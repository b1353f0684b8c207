/**
 * The part state machine: decoded chunks -> the neutral parts of `parts.ts`. Choice 0's reasoning, text and tool
 * input are opened, streamed and closed (`*-start`, `*-delta`, `*-end`), one `tool-call` with the whole arguments
 * comes once the choice finishes, a `response-metadata` part first and a `finish` part last. Every choice (with
 * `n > 1`) is folded by the decoder's accumulator; the others are given in the finish part.
 */
import { ChatCompletionStream, CompletionStream } from "@friendli-stream/stream"
import { finishOf } from "./finish.ts"
import { metadataOf, type OtherChoice, type Part } from "./parts.ts"
import { usageOf } from "./usage.ts"

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
