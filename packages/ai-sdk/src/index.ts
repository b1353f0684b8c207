/**
 * `@friendli-stream/ai-sdk`: a Vercel AI SDK provider for FriendliAI (serverless, dedicated, container) and
 * OpenAI-compatible servers, on `@friendli-stream/client` and `@friendli-stream/stream`'s decoder.
 *
 * @since 0.2.0
 */
import "./internal/requireNode.ts"

/** @since 0.2.0 */
export * from "./FriendliProvider.ts"
/** @since 0.3.0 */
export type { FriendliImageOptions } from "./internal/image.ts"
/** @since 0.2.0 */
export type { FriendliProviderOptions } from "./internal/options.ts"
/** @since 0.2.0 */
export type { FriendliServerVadChunking, FriendliTranscriptionOptions } from "./internal/transcriptionOptions.ts"
/** @since 0.2.0 */
export * from "./Tools.ts"
