/**
 * Friendli's chunks and responses -> `effect/ai`'s encoded response parts. Streams: choice 0's reasoning
 * (`reasoning-start/delta/end`), text (`text-start/delta/end`), tool calls (`tool-params-start/delta/end`, then one
 * `tool-call` with the parsed arguments once the choice finishes), a `response-metadata` part first and a
 * `finish` part (reason, usage with reasoning and cached tokens) last.
 */
import type { ChatCompletionResponse } from "@friendli-stream/core"
import type { ChatCompletionStream, ToolAssistedChatStream } from "@friendli-stream/stream"
import type * as Response from "effect/ai/Response"

type StreamPart = Response.StreamPartEncoded
type Part = Response.PartEncoded

/** `effect/ai`'s finish reason of Friendli's. */
export const finishReasonOf = (raw: string | null | undefined): Response.FinishReason => {
  switch (raw) {
    case "stop":
      return "stop"
    case "length":
      return "length"
    case "tool_calls":
      return "tool-calls"
    case "content_filter":
      return "content-filter"
    case null:
    case undefined:
      return "unknown"
    default:
      return "other"
  }
}

const num = (u: unknown): number | undefined => (typeof u === "number" ? u : undefined)

/** `effect/ai`'s usage of Friendli's (`prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`). */
export const usageOf = (raw: unknown): typeof Response.Usage.Encoded => {
  const u = (raw ?? {}) as Record<string, unknown>
  const prompt = num(u.prompt_tokens)
  const completion = num(u.completion_tokens)
  const cached = num((u.prompt_tokens_details as Record<string, unknown> | null | undefined)?.cached_tokens)
  const reasoning = num((u.completion_tokens_details as Record<string, unknown> | null | undefined)?.reasoning_tokens)
  const defined = <A extends Record<string, number | undefined>>(o: A) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof A]?: number }
  return {
    inputTokens: defined({
      total: prompt,
      uncached: prompt !== undefined && cached !== undefined ? prompt - cached : undefined,
      cacheRead: cached,
    }),
    outputTokens: defined({
      total: completion,
      text: completion !== undefined && reasoning !== undefined ? completion - reasoning : undefined,
      reasoning,
    }),
  }
}

const parseArguments = (text: string): unknown => {
  if (text.trim() === "") return {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const metadataPart = (chunk: {
  readonly id?: string | null | undefined
  readonly model?: string | null | undefined
  readonly created?: number | null | undefined
}): Response.ResponseMetadataPartEncoded => ({
  type: "response-metadata",
  ...(chunk.id ? { id: chunk.id } : {}),
  ...(chunk.model ? { modelId: chunk.model } : {}),
  ...(typeof chunk.created === "number" && chunk.created > 0
    ? { timestamp: new Date(chunk.created * 1000).toISOString() }
    : {}),
})

interface OpenCall {
  readonly id: string
  readonly name: string
  args: string
  ended: boolean
}

const parseResult = (text: string | null | undefined): unknown => {
  if (text === null || text === undefined) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Maps the chunks of one stream to parts; `finish()` gives the parts that close it. */
export class StreamMapper {
  private readonly builtInNames: ReadonlyMap<string, string>

  constructor(builtIns: ReadonlyArray<{ readonly type: string; readonly name: string }> = []) {
    this.builtInNames = new Map(builtIns.map((b) => [b.type, b.name]))
  }

  /** The parts of a tool-assisted stream's item: a chunk, or a built-in tool's status. */
  item(item: ToolAssistedChatStream.ToolAssistedChatEvent): Array<StreamPart> {
    // Tool-assisted streams are decoded strictly (the default), so their chunks are Friendli's own.
    if (item._tag === "Chunk") return this.chunk(item.chunk as ChatCompletionStream.ChatCompletionChunk)
    const status = item.status
    const name = this.builtInNames.get(status.name) ?? status.name
    const common = { id: status.tool_call_id, name, providerExecuted: true }
    switch (status.status) {
      case "STARTED":
        return [
          { type: "tool-call", ...common, params: Object.fromEntries(status.parameters.map((p) => [p.name, p.value])) },
        ]
      case "ENDED":
        return [{ type: "tool-result", ...common, result: parseResult(status.result), isFailure: false }]
      case "ERRORED":
        return [
          {
            type: "tool-result",
            ...common,
            result: status.error ? { type: status.error.type, message: status.error.msg } : "The tool failed.",
            isFailure: true,
          },
        ]
      default:
        return []
    }
  }

  private metadataSent = false
  private textOpen = false
  private reasoningOpen = false
  private reasoningCount = 0
  private readonly calls = new Map<number, OpenCall>()
  private finishRaw: string | null | undefined = undefined
  private usage: unknown = undefined

  chunk(chunk: ChatCompletionStream.ChatCompletionChunk): Array<StreamPart> {
    const out: Array<StreamPart> = []
    if (!this.metadataSent) {
      this.metadataSent = true
      out.push(metadataPart(chunk))
    }
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chunk.usage
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue
      const reasoning = choice.delta.reasoning_content
      if (reasoning) {
        if (!this.reasoningOpen) {
          this.reasoningOpen = true
          out.push({ type: "reasoning-start", id: `reasoning-${this.reasoningCount}` })
        }
        out.push({ type: "reasoning-delta", id: `reasoning-${this.reasoningCount}`, delta: reasoning })
      }
      const text = choice.delta.content
      if (text) {
        this.closeReasoning(out)
        if (!this.textOpen) {
          this.textOpen = true
          out.push({ type: "text-start", id: "text-0" })
        }
        out.push({ type: "text-delta", id: "text-0", delta: text })
      }
      for (const call of choice.delta.tool_calls ?? []) {
        let open = this.calls.get(call.index)
        if (open === undefined || open.ended) {
          this.closeReasoning(out)
          open = { id: call.id ?? `call_${call.index}`, name: call.function.name ?? "", args: "", ended: false }
          this.calls.set(call.index, open)
          out.push({ type: "tool-params-start", id: open.id, name: open.name })
        }
        if (call.function.arguments) {
          open.args += call.function.arguments
          out.push({ type: "tool-params-delta", id: open.id, delta: call.function.arguments })
        }
      }
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
        this.finishRaw = choice.finish_reason
        this.endCalls(out)
      }
    }
    return out
  }

  private endCalls(out: Array<StreamPart>) {
    for (const call of this.calls.values()) {
      if (call.ended) continue
      call.ended = true
      out.push({ type: "tool-params-end", id: call.id })
      out.push({ type: "tool-call", id: call.id, name: call.name, params: parseArguments(call.args) })
    }
  }

  private closeReasoning(out: Array<StreamPart>) {
    if (!this.reasoningOpen) return
    this.reasoningOpen = false
    out.push({ type: "reasoning-end", id: `reasoning-${this.reasoningCount}` })
    this.reasoningCount++
  }

  /** The parts that end a stream that ended properly. */
  finish(): Array<StreamPart> {
    const out: Array<StreamPart> = []
    this.closeReasoning(out)
    if (this.textOpen) out.push({ type: "text-end", id: "text-0" })
    this.endCalls(out)
    out.push({ type: "finish", reason: finishReasonOf(this.finishRaw), usage: usageOf(this.usage) })
    return out
  }
}

/** The parts of a whole (non-streamed) response: choice 0's reasoning, text and tool calls. */
export const responseParts = (response: ChatCompletionResponse): Array<Part> => {
  const out: Array<Part> = [metadataPart(response)]
  const choice = response.choices.find((c) => c.index === 0) ?? response.choices[0]
  const message = choice?.message as
    | {
        readonly content?: string | null
        readonly reasoning_content?: string | null
        readonly tool_calls?: ReadonlyArray<{
          readonly id: string
          readonly function: { readonly name: string; readonly arguments: string }
        }> | null
      }
    | undefined
  if (message?.reasoning_content) out.push({ type: "reasoning", text: message.reasoning_content })
  if (message?.content) out.push({ type: "text", text: message.content })
  for (const call of message?.tool_calls ?? []) {
    out.push({
      type: "tool-call",
      id: call.id,
      name: call.function.name,
      params: parseArguments(call.function.arguments),
    })
  }
  out.push({ type: "finish", reason: finishReasonOf(choice?.finish_reason), usage: usageOf(response.usage) })
  return out
}

/** The parts of a whole response, folded from a stream's parts (deltas joined into one text and one reasoning). */
export const foldStreamParts = (parts: ReadonlyArray<StreamPart>): Array<Part> => {
  const out: Array<Part> = []
  let text = ""
  let reasoning = ""
  const flush = () => {
    if (reasoning !== "") out.push({ type: "reasoning", text: reasoning })
    if (text !== "") out.push({ type: "text", text })
    reasoning = ""
    text = ""
  }
  for (const part of parts) {
    switch (part.type) {
      case "text-delta":
        if (reasoning !== "") flush()
        text += part.delta
        break
      case "reasoning-delta":
        if (text !== "") flush()
        reasoning += part.delta
        break
      case "tool-call":
      case "tool-result":
      case "response-metadata":
        flush()
        out.push(part)
        break
      case "finish":
        flush()
        out.push(part)
        break
      default:
        break
    }
  }
  return out
}
