/**
 * Streamed chat completions (`/v1/chat/completions`): bytes -> typed `ChatCompletionChunk`s, and the fold into the final response.
 *
 * @since 0.1.0
 */
import type * as Core from "@friendli-stream/core"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import * as Acc from "./internal/accumulate.ts"
import { type Decode, decodeOf, type FromReadableStream, fromReadableStreamOf } from "./internal/decodeApi.ts"
import * as Apis from "./internal/streamApis.ts"

/**
 * A chunk decoded with `validation: "strict"` (the generated Friendli schema).
 *
 * @since 0.1.0
 */
export type ChatCompletionChunk = Core.ChatCompletionChunk

/**
 * A chunk decoded with `validation: "compatible"` (any OpenAI-compatible server).
 *
 * @since 0.1.0
 */
export type CompatibleChatCompletionChunk = Core.CompatibleChatCompletionChunk

/**
 * The final chat completion a stream folds into.
 *
 * @since 0.1.0
 */
export type ChatCompletion = Acc.ChatCompletion

/**
 * Decodes a byte stream of `/v1/chat/completions` server-sent events into typed chunks, ending at `data: [DONE]`.
 *
 * @since 0.1.0
 */
export const decode: Decode<ChatCompletionChunk, CompatibleChatCompletionChunk> = decodeOf(Apis.chat)

/**
 * Decodes a `ReadableStream` body (e.g. `Response.body`) into typed chunks; the fastest way in, since reads that
 * are already available are decoded together. Ending or interrupting the stream cancels the body.
 *
 * @since 0.1.0
 */
export const fromReadableStream: FromReadableStream<ChatCompletionChunk, CompatibleChatCompletionChunk> =
  fromReadableStreamOf(Apis.chat)

/**
 * Folds a stream of chunks into the final chat completion, per choice `index`: content and refusal concatenated,
 * reasoning (`delta.reasoning_content`) concatenated into `message.reasoning_content` (`null` when there was none),
 * tool calls merged by their `index` with `arguments` concatenated, logprobs arrays appended, the last
 * `finish_reason`, and the last non-null `usage`.
 *
 * @since 0.1.0
 */
export const accumulate = <E, R>(
  self: Stream.Stream<ChatCompletionChunk | CompatibleChatCompletionChunk, E, R>,
): Effect.Effect<ChatCompletion, E, R> => Acc.runAccumulate(self, Acc.ChatCompletionAccumulator)

/**
 * A plain accumulator for people who do not use Effect: `add` every chunk, then read `result()`.
 *
 * @since 0.1.0
 */
export const accumulator = (): Acc.ChatCompletionAccumulator => new Acc.ChatCompletionAccumulator()
