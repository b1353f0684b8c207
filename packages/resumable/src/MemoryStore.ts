/**
 * The in-memory {@link ResumableStore}: the default, for one process, nothing to set up. Ended streams are forgotten
 * `retentionMs` after their end (their timers with them); a producer that stops renewing its lease gets a
 * `producer_lost` end from the store's own timer, so readers never hang.
 *
 * @since 0.3.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type MemoryStoreOptions, type MemoryStoreSize, makeMemoryStore } from "./internal/memory.ts"
import { ResumableStore } from "./ResumableStore.ts"

export type {
  /** @since 0.3.0 */
  MemoryStoreOptions,
  /** @since 0.3.0 */
  MemoryStoreSize,
}

/**
 * What a memory store holds right now (streams, timers, waiting readers): for tests and metrics.
 *
 * @since 0.3.0
 */
export class MemoryStore extends Context.Service<
  MemoryStore,
  {
    /** The counts at this moment. @since 0.3.0 */
    readonly size: Effect.Effect<MemoryStoreSize>
    /** Whether anything of the stream (its entries, its timer) is still held. @since 0.3.0 */
    readonly holds: (streamId: string) => Effect.Effect<boolean>
  }
>()("@friendli-stream/resumable/MemoryStore") {}

/**
 * A memory store as the {@link ResumableStore} (and its {@link MemoryStore} introspection), alive as long as the
 * layer: closing it stops every timer and fails the readers still waiting with `StoreError` reason `Closed`.
 *
 * @since 0.3.0
 */
export const layer = (options?: MemoryStoreOptions): Layer.Layer<ResumableStore | MemoryStore> =>
  Layer.effectContext(
    Effect.map(makeMemoryStore(options), ({ store, size, holds }) =>
      Context.make(ResumableStore, store).pipe(Context.add(MemoryStore, { size, holds })),
    ),
  )
