/**
 * The provider core's parts (`@friendli-stream/client/provider`) -> `effect/ai`'s encoded response parts: the core
 * reads the chunks (choice 0's reasoning, text and tool calls; built-in tools' statuses; finish reason and usage),
 * this file only renames (`tool-input-*` are `tool-params-*`, a tool call's arguments are parsed). A whole
 * (non-streamed) response is read with the same finish reason, usage and metadata.
 */
import {
  type Part as CorePart,
  usageOf as coreUsageOf,
  type Finish,
  finishOf,
  foldDeltas,
  metadataOf,
  PartMachine,
  parseArguments,
  type ResponseMetadata,
  toolStatusParts,
  type Usage,
} from "@friendli-stream/client/provider"
import type { ChatCompletionResponse } from "@friendli-stream/core"
import type { ChatCompletionStream, ToolAssistedChatStream } from "@friendli-stream/stream"
import type * as Response from "effect/ai/Response"

type StreamPart = Response.StreamPartEncoded
type Part = Response.PartEncoded

/** `effect/ai`'s finish reason: the core's, word for word (`effect/ai` has `"unknown"` too). */
export const finishReasonOf = (finish: Finish): Response.FinishReason => finish.unified

/** `effect/ai`'s usage of the core's counts (a count the server did not report is left out). */
export const usageOf = (usage: Usage): typeof Response.Usage.Encoded => {
  const defined = <A extends Record<string, number | undefined>>(o: A) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof A]?: number }
  return {
    inputTokens: defined({
      total: usage.inputTokens,
      uncached: usage.uncachedInputTokens,
      cacheRead: usage.cachedInputTokens,
    }),
    outputTokens: defined({
      total: usage.outputTokens,
      text: usage.textOutputTokens,
      reasoning: usage.reasoningTokens,
    }),
  }
}

const metadataPart = (metadata: ResponseMetadata): Response.ResponseMetadataPartEncoded => {
  const { timestamp, ...rest } = metadata
  return { ...rest, ...(timestamp === undefined ? {} : { timestamp: timestamp.toISOString() }) }
}

/** One core part as `effect/ai`'s. */
const toPart = (part: CorePart): StreamPart => {
  switch (part.type) {
    case "response-metadata":
      return metadataPart(part)
    case "tool-input-start":
      return { type: "tool-params-start", id: part.id, name: part.name }
    case "tool-input-delta":
      return { type: "tool-params-delta", id: part.id, delta: part.delta }
    case "tool-input-end":
      return { type: "tool-params-end", id: part.id }
    case "tool-call":
      return {
        type: "tool-call",
        id: part.id,
        name: part.name,
        params: parseArguments(part.input),
        ...(part.providerExecuted ? { providerExecuted: true } : {}),
      }
    case "tool-result":
      return {
        type: "tool-result",
        id: part.id,
        name: part.name,
        result: part.result,
        isFailure: part.isError,
        providerExecuted: true,
      }
    case "finish":
      return { type: "finish", reason: finishReasonOf(part.finish), usage: usageOf(part.usage) }
    default:
      return part
  }
}

/** Maps the chunks of one stream to parts; `finish()` gives the parts that close it. */
export class StreamMapper {
  private readonly machine = new PartMachine("chat")
  private readonly builtInNames: ReadonlyMap<string, string>

  constructor(builtIns: ReadonlyArray<{ readonly type: string; readonly name: string }> = []) {
    this.builtInNames = new Map(builtIns.map((b) => [b.type, b.name]))
  }

  /** The parts of a tool-assisted stream's item: a chunk, or a built-in tool's status. */
  item(item: ToolAssistedChatStream.ToolAssistedChatEvent): Array<StreamPart> {
    if (item._tag === "Chunk") return this.chunk(item.chunk as ChatCompletionStream.ChatCompletionChunk)
    return toolStatusParts(item.status, this.builtInNames).map(toPart)
  }

  /** The parts of one chunk. */
  chunk(chunk: ChatCompletionStream.ChatCompletionChunk): Array<StreamPart> {
    return this.machine.chunk(chunk).map(toPart)
  }

  /** The parts that end a stream that ended properly. */
  finish(): Array<StreamPart> {
    return this.machine.finish().map(toPart)
  }
}

/** The parts of a whole (non-streamed) response: choice 0's reasoning, text and tool calls. */
export const responseParts = (response: ChatCompletionResponse): Array<Part> => {
  const out: Array<Part> = [metadataPart(metadataOf(response))]
  const choice = response.choices.find((c) => c.index === 0) ?? response.choices[0]
  const message = choice?.message
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
  out.push({
    type: "finish",
    reason: finishReasonOf(finishOf(choice?.finish_reason)),
    usage: usageOf(coreUsageOf(response.usage)),
  })
  return out
}

/** The parts of a whole response, folded from a stream's parts (deltas joined into one text and one reasoning). */
export const foldStreamParts = (parts: ReadonlyArray<StreamPart>): Array<Part> =>
  foldDeltas(
    parts,
    (part) =>
      part.type === "tool-call" ||
      part.type === "tool-result" ||
      part.type === "response-metadata" ||
      part.type === "finish",
    (type, text): Part => ({ type, text }),
  ) as Array<Part>
