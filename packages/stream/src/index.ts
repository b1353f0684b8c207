/**
 * `@friendli-stream/stream`: the bytes of a streamed response -> typed completion chunks, on Web standards only.
 *
 * @since 0.1.0
 */
import "./internal/requireNode.ts"

/** @since 0.1.0 */
export * from "./AsyncIterables.ts"
/** @since 0.3.0 */
export * from "./ByteStreamLike.ts"
/** @since 0.1.0 */
export * as ChatCompletionStream from "./ChatCompletionStream.ts"
/** @since 0.1.0 */
export * as CompletionStream from "./CompletionStream.ts"
/** @since 0.1.0 */
export * from "./DecodeOptions.ts"
/** @since 0.1.0 */
export * as JsonEvents from "./JsonEvents.ts"
/** @since 0.1.0 */
export { decodeJsonEvents } from "./JsonEvents.ts"
/** @since 0.2.0 */
export * as MessagesStream from "./MessagesStream.ts"
/** @since 0.2.0 */
export * as ResponsesStream from "./ResponsesStream.ts"
/** @since 0.1.0 */
export * as Sse from "./Sse.ts"
/** @since 0.3.0 */
export * as SseResponse from "./SseResponse.ts"
/** @since 0.1.0 */
export * from "./StreamError.ts"
/** @since 0.1.0 */
export * as StreamMetrics from "./StreamMetrics.ts"
/** @since 0.1.0 */
export * as ToolAssistedChatStream from "./ToolAssistedChatStream.ts"
/** @since 0.2.0 */
export * as TranscriptionStream from "./TranscriptionStream.ts"
/** @since 0.2.0 */
export * from "./UnknownStreamEvent.ts"
