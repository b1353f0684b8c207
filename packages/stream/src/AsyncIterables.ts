/**
 * The plain facade for people who do not use Effect: `for await` over typed chunks. Failures are thrown as the same
 * typed errors (`StreamError` subclasses); breaking out of the loop cancels the body.
 *
 * @since 0.1.0
 */
import type { ChatCompletionChunk, CompatibleChatCompletionChunk } from "./ChatCompletionStream.ts"
import type { CompatibleCompletionChunk, CompletionChunk } from "./CompletionStream.ts"
import { type Facade, facadeOf } from "./internal/decodeApi.ts"
import * as Apis from "./internal/streamApis.ts"
import type { CompatibleMessagesStreamEvent, MessagesStreamEvent } from "./MessagesStream.ts"
import type { CompatibleResponsesStreamEvent, ResponsesStreamEvent } from "./ResponsesStream.ts"
import type { ToolAssistedChatEvent } from "./ToolAssistedChatStream.ts"
import type { CompatibleTranscriptionStreamEvent, TranscriptionStreamEvent } from "./TranscriptionStream.ts"

/**
 * Decodes a `/v1/completions` response body into typed chunks.
 *
 * @example
 * import { decodeCompletionStream } from "@friendli-stream/stream"
 *
 * const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ prompt, stream: true }) })
 * for await (const chunk of decodeCompletionStream(response.body!)) {
 *   process.stdout.write(chunk.choices[0]?.text ?? "")
 * }
 *
 * @since 0.1.0
 */
export const decodeCompletionStream: Facade<CompletionChunk, CompatibleCompletionChunk> = facadeOf(Apis.completions)

/**
 * Decodes a `/v1/chat/completions` response body into typed chunks.
 *
 * @since 0.1.0
 */
export const decodeChatCompletionStream: Facade<ChatCompletionChunk, CompatibleChatCompletionChunk> = facadeOf(
  Apis.chat,
)

/**
 * Decodes a `/tools/v1/chat/completions` response body into chat chunks and tool statuses.
 *
 * @since 0.1.0
 */
export const decodeToolAssistedChatStream: Facade<ToolAssistedChatEvent, ToolAssistedChatEvent> = facadeOf(
  Apis.toolAssistedChat,
)

/**
 * Decodes a `/v1/responses` response body (`stream: true`) into typed events, a discriminated union on `type`. The
 * loop ends after `response.completed` or `response.incomplete`; `response.failed` throws `ApiError`; a body cut
 * before the end throws `StreamTruncated` once every whole event was delivered.
 *
 * @example
 * import { decodeResponsesStream } from "@friendli-stream/stream"
 *
 * const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ model, input, stream: true }) })
 * for await (const event of decodeResponsesStream(response.body!)) {
 *   if (event.type === "response.output_text.delta") process.stdout.write(event.delta)
 * }
 *
 * @since 0.2.0
 */
export const decodeResponsesStream: Facade<ResponsesStreamEvent, CompatibleResponsesStreamEvent> = facadeOf(
  Apis.responses,
)

/**
 * Decodes a `/v1/messages` response body (`stream: true`) into typed events, a discriminated union on `type`. The
 * loop ends after `message_stop`; `event: error` throws `ApiError`; a body cut before `message_stop` throws
 * `StreamTruncated` once every whole event was delivered. `ping` events are delivered.
 *
 * @example
 * import { decodeMessagesStream } from "@friendli-stream/stream"
 *
 * for await (const event of decodeMessagesStream(response.body!)) {
 *   if (event.type === "content_block_delta" && event.delta.type === "text_delta") process.stdout.write(event.delta.text)
 * }
 *
 * @since 0.2.0
 */
export const decodeMessagesStream: Facade<MessagesStreamEvent, CompatibleMessagesStreamEvent> = facadeOf(Apis.messages)

/**
 * Decodes a `/v1/audio/transcriptions` response body (`stream: true`) into typed events: `transcript.text.delta`,
 * then `transcript.text.done`; the loop ends at `data: [DONE]`, and a body cut before it throws `StreamTruncated`.
 *
 * @since 0.2.0
 */
export const decodeTranscriptionStream: Facade<TranscriptionStreamEvent, CompatibleTranscriptionStreamEvent> = facadeOf(
  Apis.transcriptions,
)
