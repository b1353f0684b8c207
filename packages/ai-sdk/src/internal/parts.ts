/**
 * The provider core's parts (`@friendli-stream/client/provider`) -> the AI SDK's stream parts: the core reads the
 * chunks (choice 0's reasoning, text and tool input; built-in tools' statuses; finish reason and usage), this file
 * only renames. The other choices (with `n > 1`) and choice 0's logprobs go in `providerMetadata.friendli`.
 */
import type {
  JSONObject,
  JSONValue,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider"
import {
  type ChunkLike,
  type Part as CorePart,
  type Finish,
  type FinishPart,
  PartMachine,
  type ToolStatusLike,
  toolStatusParts,
  type Usage,
} from "@friendli-stream/client/provider"
import type { BuiltInOfCall } from "./request.ts"

type Part = LanguageModelV4StreamPart

/** The AI SDK's finish reason: it has no `"unknown"`, so a stream that gave no reason finishes as `"other"`. */
export const finishReasonOf = (finish: Finish): LanguageModelV4FinishReason => ({
  unified: finish.unified === "unknown" ? "other" : finish.unified,
  raw: finish.raw,
})

/** The AI SDK's usage of the core's counts. */
export const usageOf = (usage: Usage): LanguageModelV4Usage => ({
  inputTokens: {
    total: usage.inputTokens,
    noCache: usage.uncachedInputTokens,
    cacheRead: usage.cachedInputTokens,
    cacheWrite: undefined,
  },
  outputTokens: { total: usage.outputTokens, text: usage.textOutputTokens, reasoning: usage.reasoningTokens },
  ...(usage.raw === undefined ? {} : { raw: usage.raw as JSONObject }),
})

const finishPart = (part: FinishPart): Part => {
  const friendli: Record<string, JSONValue> = {}
  if (part.logprobs.length > 0) friendli.logprobs = part.logprobs as Array<JSONValue>
  if (part.otherChoices.length > 0) friendli.choices = part.otherChoices as unknown as Array<JSONValue>
  return {
    type: "finish",
    finishReason: finishReasonOf(part.finish),
    usage: usageOf(part.usage),
    ...(Object.keys(friendli).length > 0 ? { providerMetadata: { friendli } } : {}),
  }
}

/** One core part as the AI SDK's. */
const toPart = (part: CorePart): Part => {
  switch (part.type) {
    case "tool-input-start":
      return { type: "tool-input-start", id: part.id, toolName: part.name }
    case "tool-call":
      return {
        type: "tool-call",
        toolCallId: part.id,
        toolName: part.name,
        input: part.input,
        ...(part.providerExecuted ? { providerExecuted: true } : {}),
      }
    case "tool-result":
      return {
        type: "tool-result",
        toolCallId: part.id,
        toolName: part.name,
        // The AI SDK's result cannot be null: a tool that ended without a result gives the empty text.
        result: (part.result ?? "") as NonNullable<JSONValue>,
        ...(part.isError ? { isError: true } : {}),
      }
    case "finish":
      return finishPart(part)
    default:
      return part
  }
}

/** Maps the items of one stream to parts; `finish()` gives the parts that close it. */
export class PartMapper {
  private readonly machine: PartMachine
  private readonly builtInNames: ReadonlyMap<string, string>
  private readonly includeRaw: boolean

  constructor(kind: "chat" | "completion", builtIns: ReadonlyArray<BuiltInOfCall>, includeRaw: boolean) {
    this.machine = new PartMachine(kind)
    this.includeRaw = includeRaw
    this.builtInNames = new Map(builtIns.map((b) => [b.type, b.name]))
  }

  /** The parts of one chat or completion chunk. */
  chunk(chunk: ChunkLike, out: Array<Part>): void {
    if (this.includeRaw) out.push({ type: "raw", rawValue: chunk })
    for (const part of this.machine.chunk(chunk)) out.push(toPart(part))
  }

  /** The parts of a built-in tool's status: a `tool-call` when it starts, a `tool-result` when it ends or fails. */
  toolStatus(status: ToolStatusLike, out: Array<Part>): void {
    if (this.includeRaw) out.push({ type: "raw", rawValue: status })
    for (const part of toolStatusParts(status, this.builtInNames)) out.push(toPart(part))
  }

  /** The parts that end a stream that ended properly. */
  finish(out: Array<Part>): void {
    for (const part of this.machine.finish()) out.push(toPart(part))
  }
}
