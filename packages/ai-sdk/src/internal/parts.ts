/**
 * Decoded chunks -> the AI SDK's stream parts. Choice 0 is the call's text, reasoning and tool calls; every
 * choice (with `n > 1`) is folded by our accumulator and the others are reported in `providerMetadata.friendli`.
 * Tool input streams as `tool-input-start/delta/end`, then one `tool-call` with the whole arguments, once the
 * choice finishes. A built-in tool's `tool_status` events become a `tool-call` (when it starts) and a
 * `tool-result` (when it ends or fails).
 */
import type {
  JSONObject,
  JSONValue,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider"
import { ChatCompletionStream, CompletionStream } from "@friendli-stream/stream"
import type { BuiltInOfCall } from "./request.ts"

type Part = LanguageModelV4StreamPart

/** What the mapper reads of a chunk (strict and compatible chunks alike). */
interface ChunkLike {
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
          readonly tool_calls?:
            | ReadonlyArray<{
                readonly index?: number | null | undefined
                readonly id?: string | null | undefined
                readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null
              }>
            | null
            | undefined
        }
      | null
      | undefined
  }>
}

/** A built-in tool's status event, as the mapper reads it. */
interface ToolStatusLike {
  readonly tool_call_id: string
  readonly name: string
  readonly status: string
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly result?: string | null | undefined
  readonly error?: { readonly type: string; readonly msg: string } | null | undefined
}

/** The unified finish reason of Friendli's. */
export const finishReasonOf = (raw: string | null | undefined): LanguageModelV4FinishReason => {
  switch (raw) {
    case "stop":
    case "eos_token":
      return { unified: "stop", raw }
    case "length":
      return { unified: "length", raw }
    case "tool_calls":
      return { unified: "tool-calls", raw }
    case "content_filter":
      return { unified: "content-filter", raw }
    default:
      return { unified: "other", raw: raw ?? undefined }
  }
}

const num = (u: unknown): number | undefined => (typeof u === "number" ? u : undefined)

/** The AI SDK's usage of Friendli's (`prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`). */
export const usageOf = (raw: unknown): LanguageModelV4Usage => {
  const u = (raw ?? {}) as Record<string, unknown>
  const prompt = num(u.prompt_tokens)
  const completion = num(u.completion_tokens)
  const cached = num((u.prompt_tokens_details as Record<string, unknown> | null | undefined)?.cached_tokens)
  const reasoning = num((u.completion_tokens_details as Record<string, unknown> | null | undefined)?.reasoning_tokens)
  return {
    inputTokens: {
      total: prompt,
      noCache: prompt !== undefined && cached !== undefined ? prompt - cached : prompt,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: completion,
      text: completion !== undefined && reasoning !== undefined ? completion - reasoning : completion,
      reasoning,
    },
    ...(raw === undefined || raw === null ? {} : { raw: raw as JSONObject }),
  }
}

const parseResult = (text: string | null | undefined): NonNullable<JSONValue> => {
  if (text === null || text === undefined) return ""
  try {
    return (JSON.parse(text) as NonNullable<JSONValue>) ?? text
  } catch {
    return text
  }
}

interface OpenToolCall {
  readonly id: string
  readonly name: string
  args: string
  ended: boolean
}

/** Maps the items of one stream to parts; `finish()` gives the parts that close it. */
export class PartMapper {
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
  private readonly builtInNames: ReadonlyMap<string, string>
  private readonly kind: "chat" | "completion"
  private readonly includeRaw: boolean

  constructor(kind: "chat" | "completion", builtIns: ReadonlyArray<BuiltInOfCall>, includeRaw: boolean) {
    this.kind = kind
    this.includeRaw = includeRaw
    this.builtInNames = new Map(builtIns.map((b) => [b.type, b.name]))
  }

  /** The parts of one chat or completion chunk. */
  chunk(chunk: ChunkLike, out: Array<Part>): void {
    if (this.includeRaw) out.push({ type: "raw", rawValue: chunk })
    if (this.kind === "chat") this.chat.add(chunk as never)
    else this.completion.add(chunk as never)
    if (!this.metadataSent) {
      this.metadataSent = true
      out.push({
        type: "response-metadata",
        ...(chunk.id ? { id: chunk.id } : {}),
        ...(chunk.model ? { modelId: chunk.model } : {}),
        ...(typeof chunk.created === "number" && chunk.created > 0
          ? { timestamp: new Date(chunk.created * 1000) }
          : {}),
      })
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
  }

  private toolCallDelta(
    call: NonNullable<NonNullable<ChunkLike["choices"][number]["delta"]>["tool_calls"]>[number],
    out: Array<Part>,
  ) {
    const index = call.index ?? 0
    let open = this.toolCalls.get(index)
    if (open === undefined || open.ended) {
      this.closeReasoning(out)
      open = { id: call.id ?? `call_${index}`, name: call.function?.name ?? "", args: "", ended: false }
      this.toolCalls.set(index, open)
      out.push({ type: "tool-input-start", id: open.id, toolName: open.name })
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
      out.push({
        type: "tool-call",
        toolCallId: call.id,
        toolName: call.name,
        input: call.args === "" ? "{}" : call.args,
      })
    }
  }

  private closeReasoning(out: Array<Part>) {
    if (!this.reasoningOpen) return
    this.reasoningOpen = false
    out.push({ type: "reasoning-end", id: `reasoning-${this.reasoningCount}` })
    this.reasoningCount++
  }

  /** The parts of a built-in tool's status: a `tool-call` when it starts, a `tool-result` when it ends or fails. */
  toolStatus(status: ToolStatusLike, out: Array<Part>): void {
    if (this.includeRaw) out.push({ type: "raw", rawValue: status })
    const toolName = this.builtInNames.get(status.name) ?? status.name
    if (status.status === "STARTED") {
      const input = Object.fromEntries(status.parameters.map((p) => [p.name, p.value]))
      out.push({
        type: "tool-call",
        toolCallId: status.tool_call_id,
        toolName,
        input: JSON.stringify(input),
        providerExecuted: true,
      })
    } else if (status.status === "ENDED") {
      out.push({ type: "tool-result", toolCallId: status.tool_call_id, toolName, result: parseResult(status.result) })
    } else if (status.status === "ERRORED") {
      out.push({
        type: "tool-result",
        toolCallId: status.tool_call_id,
        toolName,
        result: status.error ? { type: status.error.type, message: status.error.msg } : "The tool failed.",
        isError: true,
      })
    }
  }

  /** The parts that end a stream that ended properly. */
  finish(out: Array<Part>): void {
    this.closeReasoning(out)
    if (this.textOpen) out.push({ type: "text-end", id: "text-0" })
    this.endToolCalls(out)
    const friendli: Record<string, JSONValue> = {}
    if (this.logprobs.length > 0) friendli.logprobs = this.logprobs as Array<JSONValue>
    const others = this.otherChoices()
    if (others.length > 0) friendli.choices = others
    out.push({
      type: "finish",
      finishReason: finishReasonOf(this.finishRaw),
      usage: usageOf(this.usage),
      ...(Object.keys(friendli).length > 0 ? { providerMetadata: { friendli } } : {}),
    })
  }

  /** Choices 1.. as the accumulator folded them (with `n > 1`). */
  private otherChoices(): Array<JSONValue> {
    const choices =
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
    return choices.filter((c) => c.index !== 0) as Array<JSONValue>
  }
}
