/**
 * `@friendli-stream/resumable`: resumable streams. Every event a service sends carries an SSE `id:`; a reader that
 * reconnects with `Last-Event-ID` gets every later event exactly once, then the stream's real end, from a pluggable
 * store.
 *
 * @since 0.3.0
 */
import "./internal/requireNode.ts"

/** @since 0.3.0 */
export * as EventId from "./EventId.ts"
/** @since 0.3.0 */
export * as MemoryStore from "./MemoryStore.ts"
/** @since 0.3.0 */
export * as RedisStore from "./RedisStore.ts"
/** @since 0.3.0 */
export * from "./ResumableError.ts"
/** @since 0.3.0 */
export * as ResumableHandler from "./ResumableHandler.ts"
/** @since 0.3.0 */
export * from "./ResumableStore.ts"
