/**
 * Where the service keeps its streams when it is given a Redis: the resumable package's Redis store on
 * `@effect/platform-node`'s Redis layer (node-redis, which Deno and Bun run too), loaded only then.
 */
import type { ResumableStore } from "@friendli-stream/resumable"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"

/**
 * How many connections to Redis an instance opens at most: each live reader holds one while it waits for the next
 * event, besides the producers' writes.
 *
 * @since 0.3.0
 */
export const DEFAULT_REDIS_CONNECTIONS = 64

/**
 * The Redis store at `url`, as a layer: `RedisStore.layer()` on `NodeRedis.layer({ url, maxConnections })`.
 *
 * @since 0.3.0
 */
export const storeLayer = (
  url: Redacted.Redacted<string>,
  maxConnections: number = DEFAULT_REDIS_CONNECTIONS,
): Layer.Layer<ResumableStore, unknown> =>
  Layer.unwrap(
    Effect.promise(async () => {
      const [{ RedisStore }, NodeRedis] = await Promise.all([
        import("@friendli-stream/resumable"),
        import("@effect/platform-node/NodeRedis"),
      ])
      return RedisStore.layer().pipe(Layer.provide(NodeRedis.layer({ url: Redacted.value(url), maxConnections })))
    }),
  )
