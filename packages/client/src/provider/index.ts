/**
 * The one core of the AI providers (`@friendli-stream/client/provider`): Friendli's finish reasons and usage read
 * once, a prompt's pieces made into Friendli's messages, and decoded chunks made into provider-neutral parts (the
 * part state machine, built-in tools' statuses). `@friendli-stream/ai-sdk` and `@friendli-stream/effect-ai`
 * translate these into their SDK's own types. Not a stable API: it changes with the providers, which are released
 * with this package.
 *
 * @since 0.3.0
 */
import "../internal/requireNode.ts"

/** @since 0.3.0 */
export { runOrThrow } from "../internal/handle.ts"
/** @since 0.3.0 */
export { parseResult, type ToolStatusLike, toolStatusParts } from "./builtInTools.ts"
/** @since 0.3.0 */
export { embeddingsOf, vectorOf } from "./embeddings.ts"
/** @since 0.3.0 */
export { type Finish, type FinishReason, finishOf } from "./finish.ts"
/** @since 0.3.0 */
export { foldDeltas } from "./fold.ts"
/** @since 0.3.0 */
export { type ChunkLike, PartMachine, type ToolCallDeltaLike } from "./machine.ts"
/** @since 0.3.0 */
export {
  argumentsText,
  assistantMessage,
  dataUrlOf,
  mediaContentOf,
  type ToolCallPiece,
  toolMessage,
  userMessage,
} from "./messages.ts"
/** @since 0.3.0 */
export {
  type Delta,
  type FinishPart,
  type Marker,
  metadataOf,
  type OtherChoice,
  type Part,
  parseArguments,
  type ResponseMetadata,
} from "./parts.ts"
/** @since 0.3.0 */
export { type Usage, usageOf } from "./usage.ts"
