/**
 * `@friendli-stream/effect-ai`: `effect/ai`'s `LanguageModel` (and `EmbeddingModel`, since 0.3.0) for FriendliAI
 * and OpenAI-compatible servers, on `@friendli-stream/client`.
 *
 * @since 0.2.0
 */
import "./internal/requireNode.ts"

/** @since 0.3.0 */
export * as FriendliEmbeddingModel from "./FriendliEmbeddingModel.ts"
/** @since 0.2.0 */
export * as FriendliLanguageModel from "./FriendliLanguageModel.ts"
/** @since 0.2.0 */
export * as FriendliTool from "./FriendliTool.ts"
