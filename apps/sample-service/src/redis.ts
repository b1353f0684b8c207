/**
 * `@friendli-stream/sample-service/redis`: where a sample keeps its streams when it is given a Redis, the resumable
 * package's Redis store on `@effect/platform-node`'s Redis layer (node-redis, over `node:net`: Node, Deno and Bun run
 * it, a Worker does not), loaded only then. A runtime's `main.ts` passes it to `startSample` as `redisStore`; it is
 * not in the package's Web-standard entry, which the Worker imports too.
 *
 * @since 0.3.0
 */
import type { ResumableStore } from "@friendli-stream/resumable"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"

/**
 * How many connections to Redis an instance opens at most (its pool: the producers' writes, the replays, and the one
 * reserved connection on which the store follows every live stream).
 *
 * @since 0.3.0
 */
export const DEFAULT_REDIS_CONNECTIONS = 64

/**
 * The Redis store at `url`, as a layer: `RedisStore.layer()` on `NodeRedis.layer({ url, maxConnections })`.
 *
 * @example
 * startSample({ name: "Node", defaultPort: 8080, createClient, serveMock, listen, redisStore }, options)
 *
 * @since 0.3.0
 */
export const redisStore = (
  url: Redacted.Redacted<string>,
  maxConnections: number | undefined = DEFAULT_REDIS_CONNECTIONS,
): Layer.Layer<ResumableStore, unknown> =>
  Layer.unwrap(
    Effect.promise(async () => {
      const [{ RedisStore }, NodeRedis] = await Promise.all([
        import("@friendli-stream/resumable"),
        import("@effect/platform-node/NodeRedis"),
      ])
      return RedisStore.layer().pipe(
        Layer.provide(
          NodeRedis.layer({ url: Redacted.value(url), maxConnections: maxConnections ?? DEFAULT_REDIS_CONNECTIONS }),
        ),
      )
    }),
  )
