// The store contract (store-contract.ts) on RedisStore, on a redis-server of its own: the RedisStore-only tests are
// in redis-store.test.ts, a file apart so that runners that run files in parallel run the two at once.
import assert from "node:assert/strict"
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { afterAll, beforeAll, describe } from "@friendli-stream/test-harness"
import { redisSkip, type StartedRedis, startRedis } from "@friendli-stream/test-harness/redis"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redis from "effect/persistence/Redis"
import { RedisStore } from "../src/index.ts"
import { storeContract } from "./store-contract.ts"

let redis: StartedRedis | undefined

describe.skipIf(redisSkip())("RedisStore", () => {
  beforeAll(async () => {
    redis = await startRedis()
  }, 20_000)
  afterAll(async () => {
    await redis?.stop()
  }, 20_000)

  storeContract({
    name: "redis",
    refusesUnsentSeq: true,
    layer: Layer.unwrap(
      Effect.sync(() => {
        assert.ok(redis !== undefined, "redis-server was not started")
        return RedisStore.layer({ prefix: "test:resumable:" }).pipe(
          Layer.provideMerge(NodeRedis.layer({ url: redis.url, maxConnections: 50 })),
        )
      }),
    ),
    holds: (streamId) =>
      Effect.flatMap(RedisStore.RedisStore, (r) => {
        const { meta, log } = r.keys(streamId)
        return Effect.map(
          Redis.Redis.use((redis) => redis.send<number>("EXISTS", meta, log)),
          (n) => Number(n) > 0,
        )
      }),
  })
})
