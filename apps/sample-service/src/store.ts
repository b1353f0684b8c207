/**
 * Where the service keeps its streams when it is given a Redis: the resumable package's Redis store.
 */
import type { ResumableStore } from "@friendli-stream/resumable"
import type * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"

/**
 * The Redis store at `url`, as a layer.
 *
 * @since 0.3.0
 */
export const storeLayer = (_url: Redacted.Redacted<string>): Layer.Layer<ResumableStore, unknown> => {
  throw new Error("REDIS_URL is set, but this build has no Redis store yet.")
}
