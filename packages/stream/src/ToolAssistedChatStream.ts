/**
 * Tool-assisted chat completions (`/tools/v1/chat/completions`): chat chunks, plus `event: tool_status` events kept
 * as their own variant.
 *
 * @since 0.1.0
 */
import type * as Core from "@friendli-stream/core"
import type * as Internal from "./internal/codecs.ts"
import { type Decode, decodeOf, type FromReadableStream, fromReadableStreamOf } from "./internal/decodeApi.ts"
import * as Apis from "./internal/streamApis.ts"

/**
 * The data of an `event: tool_status` event: a built-in tool started, progressed, ended or failed.
 *
 * @since 0.1.0
 */
export type ToolStatus = Core.ToolStatusEvent

/**
 * One item of a tool-assisted chat stream: a chat chunk (`_tag: "Chunk"`), or a tool status (`_tag: "ToolStatus"`).
 *
 * @since 0.1.0
 */
export type ToolAssistedChatEvent = Internal.ToolAssistedChatEvent

/**
 * Decodes a byte stream of tool-assisted chat events into chunks and tool statuses, ending at `data: [DONE]`.
 *
 * @since 0.1.0
 */
export const decode: Decode<ToolAssistedChatEvent, ToolAssistedChatEvent> = decodeOf(Apis.toolAssistedChat)

/**
 * Decodes a `ReadableStream` body into chunks and tool statuses; ending or interrupting the stream cancels the body.
 *
 * @since 0.1.0
 */
export const fromReadableStream: FromReadableStream<ToolAssistedChatEvent, ToolAssistedChatEvent> =
  fromReadableStreamOf(Apis.toolAssistedChat)
