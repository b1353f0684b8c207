/**
 * The table of streamed APIs, the decoder's half: for each API, its item codecs (strict and compatible), how its
 * stream ends (`data: [DONE]`, or a terminal event of its own), and the accumulator its items fold into. The public
 * functions (`*Stream.decode`, `fromReadableStream`, the `decode*Stream` facades) are made from these entries by
 * `decodeApi.ts`, and the client's table (`@friendli-stream/client`) adds to each its endpoint and request.
 * A new streamed API is one entry here (and one in the client's table).
 */
import type * as Core from "@friendli-stream/core"
import { type ChatCompletion, ChatCompletionAccumulator, type Completion, CompletionAccumulator } from "./accumulate.ts"
import { type MessageResult, MessagesAccumulator } from "./accumulateMessages.ts"
import { type ResponseResult, ResponsesAccumulator } from "./accumulateResponses.ts"
import { TranscriptionAccumulator, type TranscriptResult } from "./accumulateTranscription.ts"
import type { Codec } from "./codec.ts"
import {
  chatCompatible,
  chatStrict,
  completionCompatible,
  completionStrict,
  type ToolAssistedChatEvent,
  toolAssistedCompatible,
  toolAssistedStrict,
} from "./codecs.ts"
import type { MakeEnd } from "./jsonDecode.ts"
import { type Protocol, protocolCodecs, protocolEnd, type UnknownStreamEvent } from "./protocol.ts"
import { type CompatibleMessagesEvent, messagesProtocol, type StrictMessagesEvent } from "./protocols/messages.ts"
import { type CompatibleResponsesEvent, responsesProtocol } from "./protocols/responses.ts"
import { type CompatibleTranscriptionEvent, transcriptionProtocol } from "./protocols/transcription.ts"

/** A fold of a stream's items: `add` each one (it may throw, e.g. `ToolInputError`), then read `result()`. */
export interface Accumulator<A, F> {
  add(item: A): unknown
  result(): F
}

/**
 * One streamed API, as the decoder sees it. `S`: its items with `validation: "strict"`, `C`: with
 * `validation: "compatible"`, `F`: what they fold into.
 */
export interface StreamApi<S, C, F> {
  /** The API's name, for messages. */
  readonly name: string
  /** The codec of `validation: "strict"` (the default). */
  readonly strict: Codec<S>
  /** The codec of `validation: "compatible"`. */
  readonly compatible: Codec<C>
  /** A fresh end tracker per stream, for an API that ends with its own terminal event; none: `data: [DONE]`. */
  readonly end?: MakeEnd<S | C> | undefined
  /** A fresh accumulator. */
  readonly accumulator: () => Accumulator<S | C, F>
}

/** The codec that `validation` chooses. */
export const codecOf = <S, C>(
  api: StreamApi<S, C, unknown>,
  options: { readonly validation?: string | undefined } | undefined,
): Codec<S | C> => (options?.validation === "compatible" ? api.compatible : api.strict)

/** The entry of an API whose events carry their kind in a JSON `type` field (see `protocol.ts`). */
const fromProtocol = <S extends { readonly type: string }, C extends { readonly type: string }, F>(
  protocol: Protocol<S, C>,
  accumulator: () => Accumulator<S | C | UnknownStreamEvent, F>,
): StreamApi<S, C | UnknownStreamEvent, F> => ({
  name: protocol.name,
  ...protocolCodecs(protocol),
  end: protocolEnd(protocol),
  accumulator,
})

/** `/v1/completions`. */
export const completions: StreamApi<Core.CompletionChunk, Core.CompatibleCompletionChunk, Completion> = {
  name: "completions",
  strict: completionStrict,
  compatible: completionCompatible,
  accumulator: () => new CompletionAccumulator(),
}

/** `/v1/chat/completions`. */
export const chat: StreamApi<Core.ChatCompletionChunk, Core.CompatibleChatCompletionChunk, ChatCompletion> = {
  name: "chat completions",
  strict: chatStrict,
  compatible: chatCompatible,
  accumulator: () => new ChatCompletionAccumulator(),
}

/** `/tools/v1/chat/completions`: chat chunks and tool statuses; the fold is the chat chunks'. */
export const toolAssistedChat: StreamApi<ToolAssistedChatEvent, ToolAssistedChatEvent, ChatCompletion> = {
  name: "tool-assisted chat completions",
  strict: toolAssistedStrict,
  compatible: toolAssistedCompatible,
  accumulator: () => {
    const acc = new ChatCompletionAccumulator()
    return {
      add: (event: ToolAssistedChatEvent) => (event._tag === "Chunk" ? acc.add(event.chunk) : acc),
      result: () => acc.result(),
    }
  },
}

/** `/v1/responses`. */
export const responses: StreamApi<
  Core.ResponsesStreamEvent,
  CompatibleResponsesEvent | UnknownStreamEvent,
  ResponseResult
> = fromProtocol(responsesProtocol, () => new ResponsesAccumulator())

/** `/v1/messages`. */
export const messages: StreamApi<StrictMessagesEvent, CompatibleMessagesEvent | UnknownStreamEvent, MessageResult> =
  fromProtocol(messagesProtocol, () => new MessagesAccumulator())

/** `/v1/audio/transcriptions`. */
export const transcriptions: StreamApi<
  Core.StreamedAudioTranscriptionData,
  CompatibleTranscriptionEvent | UnknownStreamEvent,
  TranscriptResult
> = fromProtocol(transcriptionProtocol, () => new TranscriptionAccumulator())
