/**
 * The decoder's internals that `@friendli-stream/client` builds on (`@friendli-stream/stream/internal`): opening a
 * body for pulling, the codecs, the status table and the error-class helpers. Not a stable API: it changes with the
 * client, which is released with this package.
 *
 * @since 0.3.0
 */

/** @since 0.3.0 */
export type { ByteStream } from "./byteStream.ts"
/** @since 0.3.0 */
export { type Codec, forOneStream } from "./codec.ts"
/** @since 0.3.0 */
export { decodeExplained } from "./explain.ts"
/** @since 0.3.0 */
export { bodyPull, jsonTransform, type MakeEnd } from "./fronts.ts"
/** @since 0.3.0 */
export type { IdleLimit } from "./idle.ts"
/** @since 0.3.0 */
export { iterationDone } from "./iterate.ts"
/** @since 0.3.0 */
export { messages, responses, transcription } from "./protocolFronts.ts"
/** @since 0.3.0 */
export { chatCodec, completionCodec, toolAssistedCodec } from "./schemas.ts"
/** @since 0.3.0 */
export type { BatchPull, OpenBody } from "./source.ts"
/** @since 0.3.0 */
export { type StatusRule, type StatusTag, statusRule } from "./status.ts"
/** @since 0.3.0 */
export { type ErrorArgs, ErrorBase, type TaggedClass, tagged, withFields } from "./tagged.ts"
