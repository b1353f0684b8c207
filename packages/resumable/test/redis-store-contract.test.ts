// The store contract (store-contract.ts) on RedisStore, on a redis-server of its own: the RedisStore-only tests are
// in redis-store.test.ts, a file apart so that runners that run files in parallel run the two at once.
import { describe } from "@friendli-stream/test-harness"
import { redisSkip } from "@friendli-stream/test-harness/redis"
import * as Effect from "effect/Effect"
import * as Redis from "effect/persistence/Redis"
import { RedisStore } from "../src/index.ts"
import { redisServer } from "./redis-server.ts"
import { storeContract } from "./store-contract.ts"

describe.skipIf(redisSkip())("RedisStore", () => {
  const { storeLayer } = redisServer()

  storeContract({
    name: "redis",
    refusesUnsentSeq: true,
    layer: storeLayer(),
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
