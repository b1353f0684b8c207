/**
 * The concrete codecs: the generated guards and Schemas of `@friendli-stream/core` (strict), and our compatible
 * Schemas with the other servers' deltas read first (compatible).
 */
import * as Core from "@friendli-stream/core"
import { type Codec, forOneStream, guardedCodec, unchanged } from "./codec.ts"
import { normalizeCompatibleDelta } from "./compatDelta.ts"
import { isRecord } from "./record.ts"
import { ToolCallIndexer } from "./toolCallIndex.ts"

/**
 * `""` and `"null"` as a finish reason mean "not finished": read them as `null`. Friendli's description lists the
 * string `"null"` among the finish reasons (its servers send it), compatible servers send `""` too.
 */
const nullFinishReasons = <
  C extends { readonly choices: ReadonlyArray<{ readonly finish_reason?: string | null | undefined }> },
>(
  chunk: C,
): C => {
  const choices = chunk.choices
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i] as { finish_reason?: string | null | undefined }
    const r = choice.finish_reason
    if (r === "" || r === "null") choice.finish_reason = null
  }
  return chunk
}

/** Chunks read `""` and `"null"` finish reasons as `null`, whichever way the chunk was decoded. */
const withNullFinishReasons = <C extends Parameters<typeof nullFinishReasons>[0]>(codec: Codec<C>): Codec<C> => ({
  decode: (value, type, index, id, data) => nullFinishReasons(codec.decode(value, type, index, id, data)),
})

export const completionStrict: Codec<Core.CompletionChunk> = withNullFinishReasons(
  guardedCodec({
    guard: Core.isCompletionChunk,
    schema: Core.CompletionChunk,
    normalize: unchanged,
  }),
)

export const completionCompatible: Codec<Core.CompatibleCompletionChunk> = withNullFinishReasons(
  guardedCodec({
    guard: Core.isCompatibleCompletionChunk,
    schema: Core.CompatibleCompletionChunk,
    normalize: unchanged,
  }),
)

export const chatStrict: Codec<Core.ChatCompletionChunk> = withNullFinishReasons(
  guardedCodec({
    guard: Core.isChatCompletionChunk,
    schema: Core.ChatCompletionChunk,
    normalize: unchanged,
  }),
)

const chatCompatibleChecked: Codec<Core.CompatibleChatCompletionChunk> = withNullFinishReasons(
  guardedCodec({
    guard: Core.isCompatibleChatCompletionChunk,
    schema: Core.CompatibleChatCompletionChunk,
    normalize: unchanged,
  }),
)

/**
 * Compatible chat chunks of one stream: other servers' deltas read as Friendli's (Mistral's content parts,
 * `reasoning`: `compatDelta.ts`; tool-call indices: `toolCallIndex.ts`, which keeps state, hence a fresh codec per
 * stream) before the schema checks them, and `""` / `"null"` finish reasons read as `null`.
 */
const chatCompatibleStream = (): Codec<Core.CompatibleChatCompletionChunk> => {
  const indexer = new ToolCallIndexer()
  return {
    decode: (value, type, index, id, data) => {
      const choices = isRecord(value) ? value.choices : undefined
      if (Array.isArray(choices)) {
        for (let i = 0; i < choices.length; i++) {
          const choice = choices[i]
          if (!isRecord(choice)) continue
          const delta = choice.delta
          if (!isRecord(delta)) continue
          normalizeCompatibleDelta(delta)
          if (typeof choice.index === "number") indexer.apply(choice.index, delta)
        }
      }
      return chatCompatibleChecked.decode(value, type, index, id, data)
    },
    fresh: chatCompatibleStream,
  }
}

export const chatCompatible: Codec<Core.CompatibleChatCompletionChunk> = chatCompatibleStream()

export const toolStatus: Codec<Core.ToolStatusEvent> = guardedCodec({
  guard: Core.isToolStatusEvent,
  schema: Core.ToolStatusEvent,
  normalize: unchanged,
})

/** One item of a tool-assisted chat stream: a chat chunk, or the data of an `event: tool_status` event. */
export type ToolAssistedChatEvent =
  | { readonly _tag: "Chunk"; readonly chunk: Core.ChatCompletionChunk | Core.CompatibleChatCompletionChunk }
  | { readonly _tag: "ToolStatus"; readonly status: Core.ToolStatusEvent }

const toolAssisted = (
  chat: Codec<Core.ChatCompletionChunk | Core.CompatibleChatCompletionChunk>,
): Codec<ToolAssistedChatEvent> => ({
  decode: (value, type, index, id, data) =>
    type === "tool_status"
      ? { _tag: "ToolStatus", status: toolStatus.decode(value, type, index, id, data) }
      : { _tag: "Chunk", chunk: chat.decode(value, type, index, id, data) },
  ...(chat.fresh === undefined ? {} : { fresh: () => toolAssisted(forOneStream(chat)) }),
})

export const toolAssistedStrict: Codec<ToolAssistedChatEvent> = toolAssisted(chatStrict)
export const toolAssistedCompatible: Codec<ToolAssistedChatEvent> = toolAssisted(chatCompatible)

/** The codec that `validation` chooses, per API. */
export const completionCodec = (
  options: { readonly validation?: string | undefined } | undefined,
): Codec<Core.CompletionChunk | Core.CompatibleCompletionChunk> =>
  options?.validation === "compatible" ? completionCompatible : completionStrict

export const chatCodec = (
  options: { readonly validation?: string | undefined } | undefined,
): Codec<Core.ChatCompletionChunk | Core.CompatibleChatCompletionChunk> =>
  options?.validation === "compatible" ? chatCompatible : chatStrict

export const toolAssistedCodec = (
  options: { readonly validation?: string | undefined } | undefined,
): Codec<ToolAssistedChatEvent> => (options?.validation === "compatible" ? toolAssistedCompatible : toolAssistedStrict)
