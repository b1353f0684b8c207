/**
 * The plain facade for people who do not use Effect: `for await` over typed chunks. Failures are thrown as the same
 * typed errors (`StreamError` subclasses); breaking out of the loop cancels the body.
 *
 * @since 0.1.0
 */
import type { ChatCompletionChunk, CompatibleChatCompletionChunk } from "./ChatCompletionStream.ts"
import type { CompatibleCompletionChunk, CompletionChunk } from "./CompletionStream.ts"
import type { CompatibleOptions, DecodeOptions, StrictOptions } from "./DecodeOptions.ts"
import { iterateBody } from "./internal/iterate.ts"
import { messages, responses, transcription } from "./internal/protocolFronts.ts"
import { chatCodec, completionCodec, toolAssistedCodec } from "./internal/schemas.ts"
import type { CompatibleMessagesStreamEvent, MessagesStreamEvent } from "./MessagesStream.ts"
import type { CompatibleResponsesStreamEvent, ResponsesStreamEvent } from "./ResponsesStream.ts"
import type { ReadableByteStream } from "./Sse.ts"
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
export function decodeCompletionStream(
  body: ReadableByteStream,
  options?: StrictOptions,
): AsyncIterable<CompletionChunk>
/** With `validation: "compatible"`: lenient OpenAI-compatible chunks. @since 0.1.0 */
export function decodeCompletionStream(
  body: ReadableByteStream,
  options: CompatibleOptions,
): AsyncIterable<CompatibleCompletionChunk>
/** With the validation chosen at run time: either kind of chunk. @since 0.1.0 */
export function decodeCompletionStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<CompletionChunk | CompatibleCompletionChunk>
export function decodeCompletionStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<CompletionChunk | CompatibleCompletionChunk> {
  return iterateBody(body, completionCodec(options), options)
}

/**
 * Decodes a `/v1/chat/completions` response body into typed chunks.
 *
 * @since 0.1.0
 */
export function decodeChatCompletionStream(
  body: ReadableByteStream,
  options?: StrictOptions,
): AsyncIterable<ChatCompletionChunk>
/** With `validation: "compatible"`: lenient OpenAI-compatible chunks. @since 0.1.0 */
export function decodeChatCompletionStream(
  body: ReadableByteStream,
  options: CompatibleOptions,
): AsyncIterable<CompatibleChatCompletionChunk>
/** With the validation chosen at run time: either kind of chunk. @since 0.1.0 */
export function decodeChatCompletionStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<ChatCompletionChunk | CompatibleChatCompletionChunk>
export function decodeChatCompletionStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<ChatCompletionChunk | CompatibleChatCompletionChunk> {
  return iterateBody(body, chatCodec(options), options)
}

/**
 * Decodes a `/tools/v1/chat/completions` response body into chat chunks and tool statuses.
 *
 * @since 0.1.0
 */
export const decodeToolAssistedChatStream = (
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<ToolAssistedChatEvent> => {
  const codec = toolAssistedCodec(options)
  return iterateBody(body, codec, options)
}

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
export function decodeResponsesStream(
  body: ReadableByteStream,
  options?: StrictOptions,
): AsyncIterable<ResponsesStreamEvent>
/** With `validation: "compatible"`: any Responses server's events, unknown types included. @since 0.2.0 */
export function decodeResponsesStream(
  body: ReadableByteStream,
  options: CompatibleOptions,
): AsyncIterable<CompatibleResponsesStreamEvent>
/** With the validation chosen at run time: either kind of event. @since 0.2.0 */
export function decodeResponsesStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<ResponsesStreamEvent | CompatibleResponsesStreamEvent>
export function decodeResponsesStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<ResponsesStreamEvent | CompatibleResponsesStreamEvent> {
  return iterateBody(body, responses.choose(options), options, responses.end) as never
}

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
export function decodeMessagesStream(
  body: ReadableByteStream,
  options?: StrictOptions,
): AsyncIterable<MessagesStreamEvent>
/** With `validation: "compatible"`: any Messages server's events, unknown types included. @since 0.2.0 */
export function decodeMessagesStream(
  body: ReadableByteStream,
  options: CompatibleOptions,
): AsyncIterable<CompatibleMessagesStreamEvent>
/** With the validation chosen at run time: either kind of event. @since 0.2.0 */
export function decodeMessagesStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<MessagesStreamEvent | CompatibleMessagesStreamEvent>
export function decodeMessagesStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<MessagesStreamEvent | CompatibleMessagesStreamEvent> {
  return iterateBody(body, messages.choose(options), options, messages.end) as never
}

/**
 * Decodes a `/v1/audio/transcriptions` response body (`stream: true`) into typed events: `transcript.text.delta`,
 * then `transcript.text.done`; the loop ends at `data: [DONE]`, and a body cut before it throws `StreamTruncated`.
 *
 * @since 0.2.0
 */
export function decodeTranscriptionStream(
  body: ReadableByteStream,
  options?: StrictOptions,
): AsyncIterable<TranscriptionStreamEvent>
/** With `validation: "compatible"`: any transcription server's events, unknown types included. @since 0.2.0 */
export function decodeTranscriptionStream(
  body: ReadableByteStream,
  options: CompatibleOptions,
): AsyncIterable<CompatibleTranscriptionStreamEvent>
/** With the validation chosen at run time: either kind of event. @since 0.2.0 */
export function decodeTranscriptionStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<TranscriptionStreamEvent | CompatibleTranscriptionStreamEvent>
export function decodeTranscriptionStream(
  body: ReadableByteStream,
  options?: DecodeOptions,
): AsyncIterable<TranscriptionStreamEvent | CompatibleTranscriptionStreamEvent> {
  return iterateBody(body, transcription.choose(options), options, transcription.end) as never
}
