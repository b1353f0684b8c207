/**
 * The decoder's internals that `@friendli-stream/client` builds on (`@friendli-stream/stream/internal`): opening a
 * body for pulling, the table of streamed APIs and the decode functions made from its entries, the codecs, the
 * status table and the error-class helpers, and the types the table's entries are made of (so that a package
 * building on them can name them in its declarations). Not a stable API: it changes with the client, which is
 * released with this package.
 *
 * @since 0.3.0
 */
import "./requireNode.ts"

/** @since 0.3.0 */
export type { ChatCompletion, Completion } from "./accumulate.ts"
/** @since 0.3.0 */
export type { MessageResult } from "./accumulateMessages.ts"
/** @since 0.3.0 */
export type { ResponseResult } from "./accumulateResponses.ts"
/** @since 0.3.0 */
export type { TranscriptResult } from "./accumulateTranscription.ts"
/** @since 0.3.0 */
export { errorObject } from "./apiError.ts"
/** @since 0.3.0 */
export { type ByteStream, clearTimer, setTimer } from "./byteStream.ts"
/** @since 0.3.0 */
export { type Codec, forOneStream, guardedCodec, unchanged } from "./codec.ts"
/** @since 0.3.0 */
export type { ToolAssistedChatEvent } from "./codecs.ts"
/** @since 0.3.0 */
export {
  type Decode,
  decodeOf,
  type Facade,
  type FromReadableStream,
  facadeOf,
  fromReadableStreamOf,
} from "./decodeApi.ts"
/** @since 0.3.0 */
export { decodeExplained } from "./explain.ts"
/** @since 0.3.0 */
export type { IdleLimit } from "./idle.ts"
/** @since 0.3.0 */
export { iterationDone } from "./iterate.ts"
/** @since 0.3.0 */
export { bodyPull, jsonTransform, type MakeEnd } from "./jsonDecode.ts"
/** @since 0.3.0 */
export type { UnknownStreamEvent } from "./protocol.ts"
/** @since 0.3.0 */
export type { CompatibleMessagesEvent, StrictMessagesEvent } from "./protocols/messages.ts"
/** @since 0.3.0 */
export type { CompatibleResponsesEvent } from "./protocols/responses.ts"
/** @since 0.3.0 */
export type { CompatibleTranscriptionEvent } from "./protocols/transcription.ts"
/** @since 0.3.0 */
export { sentence } from "./sentence.ts"
/** @since 0.3.0 */
export type { BatchPull, OpenBody } from "./source.ts"
/** @since 0.3.0 */
export { type StatusRule, type StatusTag, statusRule } from "./status.ts"
/** The decoder's table of streamed APIs: one entry per API (codecs, end, accumulator). @since 0.3.0 */
export * as StreamApis from "./streamApis.ts"
/** @since 0.3.0 */
export { type Accumulator, codecOf, type StreamApi } from "./streamApis.ts"
/** @since 0.3.0 */
export { type ErrorArgs, ErrorBase, type TaggedClass, tagged, withFields } from "./tagged.ts"
