// The redis-server of the RedisStore test files (redis-store.test.ts, redis-store-contract.test.ts): each file
// starts one of its own before its tests and stops it after them, and builds its stores on it.
import assert from "node:assert/strict"
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { afterAll, beforeAll } from "@friendli-stream/test-harness"
import { type StartedRedis, startRedis } from "@friendli-stream/test-harness/redis"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redis from "effect/persistence/Redis"
import { RedisStore, type ResumableStore } from "../src/index.ts"

/** The key prefix of every test store. */
export const PREFIX = "test:resumable:"

/** What a test store provides. */
export type StoreServices = ResumableStore | RedisStore.RedisStore | Redis.Redis

/**
 * Starts a redis-server for the enclosing `describe` (before its tests, stopped after them); `storeLayer` builds a
 * store on its own connections to it (the URL is read when the layer is built).
 */
export const redisServer = () => {
  let redis: StartedRedis | undefined
  beforeAll(async () => {
    redis = await startRedis()
  }, 20_000)
  afterAll(async () => {
    await redis?.stop()
  }, 20_000)
  const url = (): string => {
    assert.ok(redis !== undefined, "redis-server was not started")
    return redis.url
  }
  const storeLayer = (
    options?: RedisStore.RedisStoreOptions,
    connections: NonNullable<Parameters<typeof NodeRedis.layer>[0]> = { maxConnections: 50 },
  ): Layer.Layer<StoreServices, unknown> =>
    Layer.unwrap(
      Effect.sync(() =>
        RedisStore.layer({ prefix: PREFIX, ...options }).pipe(
          Layer.provideMerge(NodeRedis.layer({ ...connections, url: url() })),
        ),
      ),
    )
  return { storeLayer }
}
