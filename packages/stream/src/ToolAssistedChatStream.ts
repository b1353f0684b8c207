/**
 * Tool-assisted chat completions (`/tools/v1/chat/completions`): chat chunks, plus `event: tool_status` events kept
 * as their own variant.
 *
 * @since 0.1.0
 */
import type * as Core from "@friendli-stream/core"
import type * as Stream from "effect/Stream"
import type { DecodeOptions } from "./DecodeOptions.ts"
import { bodyStream, dualDecode } from "./internal/fronts.ts"
import * as Internal from "./internal/schemas.ts"
import type { ByteStreamLike } from "./Sse.ts"
import type { DecodeError } from "./StreamError.ts"

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
export const decode: {
  (
    options?: DecodeOptions,
  ): <E, R>(self: Stream.Stream<Uint8Array, E, R>) => Stream.Stream<ToolAssistedChatEvent, E | DecodeError, R>
  <E, R>(
    self: Stream.Stream<Uint8Array, E, R>,
    options?: DecodeOptions,
  ): Stream.Stream<ToolAssistedChatEvent, E | DecodeError, R>
} = dualDecode(Internal.toolAssistedCodec) as never

/**
 * Decodes a `ReadableStream` body into chunks and tool statuses; ending or interrupting the stream cancels the body.
 *
 * @since 0.1.0
 */
export const fromReadableStream = (
  body: ByteStreamLike,
  options?: DecodeOptions,
): Stream.Stream<ToolAssistedChatEvent, DecodeError> => bodyStream(body, Internal.toolAssistedCodec, options)
