// Two handlers, as two service instances, on one real Redis: a stream started on one is resumed and cancelled
// through the other. Each handler has its own store and its own connections (two `NodeRedis` layers).
import assert from "node:assert/strict"
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { FriendliClient } from "@friendli-stream/stream"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { redisSkip, type StartedRedis, startRedis } from "@friendli-stream/test-harness/redis"
import { createMockFriendli, type MockFriendli } from "@friendli-stream/testing"
import { type RunningServer, serveNode } from "@friendli-stream/testing/node"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redis from "effect/persistence/Redis"
import { RedisStore, ResumableHandler } from "../src/index.ts"
import {
  eventsOf,
  post,
  readThenDrop,
  resume,
  type StartBody,
  sentData,
  streamUrl,
  uniquePrompt,
  upstreamOf,
} from "./support.ts"

const PREFIX = "test:handler:"

interface Instance {
  readonly base: string
  close(): Promise<void>
}

/** One service instance: a web handler on a Redis store, producing from the mock, served on 127.0.0.1. */
const startInstance = async (
  redisUrl: string,
  mockUrl: string,
  options: { readonly retentionMs?: number } = {},
): Promise<Instance> => {
  const handler = ResumableHandler.toWebHandler({
    retentionMs: options.retentionMs ?? 60_000,
    store: RedisStore.layer({ prefix: PREFIX }).pipe(Layer.provide(NodeRedis.layer({ url: redisUrl }))),
    start: (request: Request) =>
      Effect.gen(function* () {
        const body = (yield* Effect.promise(() => request.json())) as StartBody
        const baseURL = body.faults === undefined ? mockUrl : `${mockUrl}/_fault/${body.faults}`
        const client = yield* FriendliClient.make({ deployment: "container", baseURL, maxRetries: 0 }).pipe(
          Effect.provide(FriendliClient.fetchHttpClient()),
          Effect.orDie,
        )
        return client.completions.stream({
          model: "mock-model",
          prompt: body.prompt,
          max_tokens: body.max_tokens ?? 16,
        })
      }),
  })
  const server = await serveNode(handler.fetch)
  return {
    base: `${server.url}/v1/stream`,
    close: async () => {
      await handler.close()
      await server.close()
    },
  }
}

/** The status of a `GET` (its body read and dropped). */
const statusOf = async (url: string, lastEventId?: string): Promise<number> => {
  const response = await resume(url, lastEventId)
  await response.text()
  return response.status
}

/** The same stream's URL on another instance. */
const on = (instance: Instance, url: string): string => `${instance.base}/${url.slice(url.lastIndexOf("/") + 1)}`

describe.skipIf(redisSkip())("ResumableHandler on a Redis store, two instances", () => {
  let redis: StartedRedis
  let mock: MockFriendli
  let mockServer: RunningServer
  let a: Instance
  let b: Instance
  beforeAll(async () => {
    redis = await startRedis()
    mock = createMockFriendli()
    mockServer = await serveNode(mock)
    a = await startInstance(redis.url, mockServer.url)
    b = await startInstance(redis.url, mockServer.url)
  }, 20_000)
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await mockServer?.close()
    await redis?.stop()
  }, 20_000)

  it("resumes on B a stream started on A and dropped after 3 events: the whole answer exactly once, in order", async () => {
    const prompt = uniquePrompt("two instances")
    const controller = new AbortController()
    const response = await post(a, { prompt, max_tokens: 12, faults: "delay:5" }, controller.signal)
    const url = streamUrl(a, response)
    const before = await readThenDrop(response, 3, controller)
    assert.equal(before.length, 3)
    const rest = await eventsOf(await resume(on(b, url), before.at(-1)?.id))
    const record = await mock.waitForSettled(upstreamOf(mock, prompt).id)
    const all = [...before, ...rest]
    assert.deepEqual(
      all.map((e) => e.data),
      sentData(record),
      "the events read on A then B are the upstream's answer, once each",
    )
    assert.deepEqual(
      all.map((e) => e.id),
      all.map((_, i) => `${url.slice(url.lastIndexOf("/") + 1)}.${i + 1}`),
    )
    assert.equal(all.at(-1)?.data, "[DONE]")
    // after the end, on either instance: the rest and the end, or nothing (204) after the end itself
    assert.deepEqual(await eventsOf(await resume(on(a, url), all.at(-4)?.id)), all.slice(-3))
    assert.equal(await statusOf(on(b, url), all.at(-1)?.id), 204)
  })

  it("cancels on B a stream produced on A: B's readers get the cancelled end and A aborts its upstream request", async () => {
    const prompt = uniquePrompt("cancel across")
    const response = await post(a, { prompt, max_tokens: 400, faults: "delay:20" })
    const url = streamUrl(a, response)
    const reading = eventsOf(response)
    await mock.waitForRequest((r) => (r.body as { prompt?: string } | undefined)?.prompt === prompt)
    const cancel = await fetch(on(b, url), { method: "DELETE" })
    assert.equal(cancel.status, 200)
    const events = await reading
    assert.equal((JSON.parse(events.at(-1)?.data ?? "{}") as { error: { code: string } }).error.code, "cancelled")
    await mock.waitForDisconnect(upstreamOf(mock, prompt).id)
    assert.deepEqual(await eventsOf(await resume(on(b, url))), events, "B replays what A's reader got")
    const again = await fetch(on(a, url), { method: "DELETE" })
    await again.text()
    assert.equal(again.status, 409)
  })

  it("answers 404 on both instances after the retention time, with no key of the stream left in Redis", async () => {
    const [c, d] = [
      await startInstance(redis.url, mockServer.url, { retentionMs: 300 }),
      await startInstance(redis.url, mockServer.url, { retentionMs: 300 }),
    ]
    const probe = ManagedRuntime.make(NodeRedis.layer({ url: redis.url }))
    try {
      const response = await post(c, { prompt: uniquePrompt("retention"), max_tokens: 4 })
      const url = streamUrl(c, response)
      await eventsOf(response)
      const { meta, log } = RedisStore.keys(url.slice(url.lastIndexOf("/") + 1), PREFIX)
      const start = Date.now()
      while ((await statusOf(on(d, url))) !== 404) {
        assert.ok(Date.now() - start < 10_000, "still readable 10 s after a 300 ms retention")
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      assert.equal(await statusOf(on(c, url)), 404)
      assert.equal(Number(await probe.runPromise(Redis.Redis.use((r) => r.send("EXISTS", meta, log)))), 0)
    } finally {
      await probe.dispose()
      await c.close()
      await d.close()
    }
  })
})
