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
import { chatCodec, completionCodec, toolAssistedCodec } from "./internal/schemas.ts"
import type { ReadableByteStream } from "./Sse.ts"
import type { ToolAssistedChatEvent } from "./ToolAssistedChatStream.ts"

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
