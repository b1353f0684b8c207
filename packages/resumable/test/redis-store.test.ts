import assert from "node:assert/strict"
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { redisSkip, startRedis } from "@friendli-stream/test-harness/redis"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Redis from "effect/persistence/Redis"
import * as Stream from "effect/Stream"
import {
  type CreateOptions,
  type Entry,
  EventId,
  endEvent,
  LeaseLost,
  RedisStore,
  ResumableStore,
  StoreError,
} from "../src/index.ts"
import { PREFIX, redisServer, type StoreServices as Services } from "./redis-server.ts"

type Instance = ManagedRuntime.ManagedRuntime<Services, unknown>

const LONG: CreateOptions = { leaseMs: 30_000, retentionMs: 60_000, maxDurationMs: 60_000 }

const events = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ data: JSON.stringify({ n: from + i }) }))

const failure = async <A, E>(instance: Instance, effect: Effect.Effect<A, E, Services>): Promise<E> => {
  const exit = await instance.runPromiseExit(effect)
  assert.ok(Exit.isFailure(exit), "expected a failure")
  const error = Cause.findErrorOption(exit.cause)
  assert.ok(Option.isSome(error), `expected a typed failure, got ${Cause.pretty(exit.cause)}`)
  return error.value as E
}

const use = <A, E>(instance: Instance, f: (s: ResumableStore["Service"]) => Effect.Effect<A, E>): Promise<A> =>
  instance.runPromise(ResumableStore.use(f))

const readAll = (instance: Instance, streamId: string, afterSeq = 0, pageSize?: number): Promise<Array<Entry>> =>
  use(instance, (s) => Stream.runCollect(s.read(streamId, afterSeq, pageSize === undefined ? undefined : { pageSize })))

const commands = (instance: Instance) => instance.runPromise(RedisStore.RedisStore.use((r) => r.commands))

/** The keys under the test prefix that belong to a stream (SCAN, not KEYS). */
const keysOf = async (instance: Instance, streamId: string): Promise<Array<string>> => {
  const found: Array<string> = []
  let cursor = "0"
  do {
    const reply = await instance.runPromise(
      Redis.Redis.use((r) => r.send<[string, Array<string>]>("SCAN", cursor, "MATCH", `${PREFIX}{${streamId}}*`)),
    )
    cursor = String(reply[0])
    found.push(...reply[1])
  } while (cursor !== "0")
  return found.sort()
}

describe.skipIf(redisSkip())("RedisStore", () => {
  const { storeLayer } = redisServer()

  describe("on a real Redis", () => {
    let a: Instance
    let b: Instance
    beforeAll(() => {
      a = ManagedRuntime.make(storeLayer())
      b = ManagedRuntime.make(storeLayer({ pageSize: 256 }))
    })
    afterAll(async () => {
      await Promise.all([a?.dispose(), b?.dispose()])
    })

    it("writes a meta hash and a stream under the prefix, both expiring, then gone after the retention time", async () => {
      const id = EventId.makeStreamId()
      const options = { leaseMs: 30_000, retentionMs: 400, maxDurationMs: 60_000 }
      const lease = await use(a, (s) => s.create(id, options))
      await use(a, (s) => s.append(lease, events(1, 3)))
      const { meta, log } = RedisStore.keys(id, PREFIX)
      assert.deepEqual(await keysOf(a, id), [log, meta].sort())
      for (const key of [meta, log]) {
        const ttl = Number(await a.runPromise(Redis.Redis.use((r) => r.send("PTTL", key))))
        assert.ok(ttl > 0 && ttl <= 60_400, `${key} has a PTTL of ${ttl} while live (max duration + retention)`)
      }
      await use(a, (s) => s.finish(lease, endEvent("done")))
      for (const key of [meta, log]) {
        const ttl = Number(await a.runPromise(Redis.Redis.use((r) => r.send("PTTL", key))))
        assert.ok(ttl > 0 && ttl <= 400, `${key} has a PTTL of ${ttl} after the end (the retention time)`)
      }
      const ended = Date.now()
      while ((await keysOf(a, id)).length > 0) {
        assert.ok(Date.now() - ended < 10_000, "keys still there 10 s after a 400 ms retention")
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      console.log(`measured: redis store: keys gone ${Date.now() - ended} ms after the end (retention 400 ms)`)
      assert.equal(
        Number(await a.runPromise(Redis.Redis.use((r) => r.send("EXISTS", meta, log)))),
        0,
        "EXISTS finds neither key",
      )
    })

    it("replays 5,000 events in pages of the page size, one command per page", async () => {
      const id = EventId.makeStreamId()
      const lease = await use(a, (s) => s.create(id, LONG))
      for (let from = 1; from <= 5000; from += 500) await use(a, (s) => s.append(lease, events(from, 500)))
      await use(a, (s) => s.finish(lease, endEvent("done")))
      for (const pageSize of [256, 1000]) {
        const before = await commands(b)
        const entries = await readAll(b, id, 0, pageSize)
        const after = await commands(b)
        assert.equal(entries.length, 5001)
        assert.deepEqual(
          entries.map((e) => e.seq),
          Array.from({ length: 5001 }, (_, i) => i + 1),
        )
        assert.deepEqual(JSON.parse(entries[4999]?.data ?? ""), { n: 5000 })
        assert.equal(entries[5000]?.end, "done")
        assert.equal(after.page - before.page, Math.ceil(5001 / pageSize), `pages of ${pageSize}`)
        assert.equal(after.xread - before.xread, 0, "an ended stream is replayed without blocking reads")
        assert.equal(after.total - before.total, Math.ceil(5001 / pageSize))
      }
    })

    it("lets two store instances on one Redis serve each other's streams: one appends, the other reads live and cancels", async () => {
      const id = EventId.makeStreamId()
      const lease = await use(a, (s) => s.create(id, LONG))
      await use(a, (s) => s.append(lease, events(1, 2)))
      const seen: Array<Entry> = []
      const waiters: Array<{ readonly count: number; readonly resolve: () => void }> = []
      /** Resolves once the reader has seen `count` entries. */
      const seenCount = (count: number) =>
        new Promise<void>((resolve) => {
          if (seen.length >= count) resolve()
          else waiters.push({ count, resolve })
        })
      const reading = b.runPromise(
        ResumableStore.use((s) =>
          Stream.runForEach(s.read(id, 0), (entry) =>
            Effect.sync(() => {
              seen.push(entry)
              for (const w of waiters.filter((w) => seen.length >= w.count)) w.resolve()
            }),
          ),
        ),
      )
      await seenCount(2)
      for (let i = 3; i <= 6; i++) {
        await use(a, (s) => s.append(lease, events(i, 1)))
        await seenCount(i)
        assert.equal(seen.length, i, "instance B saw A's batch before the next one")
      }
      assert.equal(await use(b, (s) => s.cancel(id)), "cancelled")
      await reading
      assert.deepEqual(
        seen.map((e): [number, string | undefined] => [e.seq, e.end]),
        [
          [1, undefined],
          [2, undefined],
          [3, undefined],
          [4, undefined],
          [5, undefined],
          [6, undefined],
          [7, "cancelled"],
        ],
      )
      const error = await failure(
        a,
        ResumableStore.use((s) => s.append(lease, events(7, 1))),
      )
      assert.ok(error instanceof LeaseLost)
      assert.equal(error.reason, "Cancelled")
      assert.deepEqual(await readAll(a, id), seen, "A replays what B read")
    })

    it("fences a producer whose lease expired with no reader: its next append stores producer_lost and fails with Expired", async () => {
      const id = EventId.makeStreamId()
      const lease = await use(a, (s) => s.create(id, { ...LONG, leaseMs: 150 }))
      await use(a, (s) => s.append(lease, events(1, 1)))
      // wait (on Redis's own clock) until the lease has expired
      const { meta } = RedisStore.keys(id, PREFIX)
      const until = Number(await a.runPromise(Redis.Redis.use((r) => r.send("HGET", meta, "until"))))
      while (true) {
        const [seconds, micros] = await a.runPromise(Redis.Redis.use((r) => r.send<[string, string]>("TIME")))
        if (Number(seconds) * 1000 + Number(micros) / 1000 > until) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      for (const attempt of [
        ResumableStore.use((s) => s.append(lease, events(2, 1))),
        ResumableStore.use((s) => s.renew(lease)),
        ResumableStore.use((s) => s.finish(lease, endEvent("done"))),
      ]) {
        const error = await failure(a, attempt)
        assert.ok(error instanceof LeaseLost)
        assert.equal(error.reason, "Expired")
      }
      const entries = await readAll(b, id)
      assert.deepEqual(
        entries.map((e) => [e.seq, e.end]),
        [
          [1, undefined],
          [2, "producer_lost"],
        ],
      )
    })

    it("stores producer_lost exactly once when readers on two instances notice the expired lease together", async () => {
      const id = EventId.makeStreamId()
      const leaseMs = 300
      const lease = await use(a, (s) => s.create(id, { ...LONG, leaseMs }))
      await use(a, (s) => s.append(lease, events(1, 3)))
      const start = Date.now()
      const results = await Promise.all([
        readAll(a, id),
        readAll(b, id),
        readAll(a, id, 1),
        readAll(b, id, 2),
        readAll(b, id),
      ])
      console.log(
        `measured: redis store: 5 readers on 2 instances got producer_lost ${Date.now() - start} ms after they started (lease ${leaseMs} ms)`,
      )
      const [first] = results
      assert.deepEqual(
        first?.map((e) => [e.seq, e.end]),
        [
          [1, undefined],
          [2, undefined],
          [3, undefined],
          [4, "producer_lost"],
        ],
      )
      assert.deepEqual(results[1], first)
      assert.deepEqual(results[4], first)
      assert.deepEqual(results[2], first?.slice(1))
      assert.deepEqual(results[3], first?.slice(2))
      const { log } = RedisStore.keys(id, PREFIX)
      assert.equal(Number(await a.runPromise(Redis.Redis.use((r) => r.send("XLEN", log)))), 4, "one end entry")
    })

    it("issues at most one Redis command per appended event when events come in batches of 10", async () => {
      const before = [await commands(a), await commands(b)]
      const id = EventId.makeStreamId()
      const lease = await use(a, (s) => s.create(id, LONG))
      const reading = readAll(b, id)
      const total = 2000
      for (let from = 1; from <= total; from += 10) {
        await use(a, (s) => s.append(lease, events(from, 10)))
        if (from % 500 === 1) await use(a, (s) => s.renew(lease))
      }
      await use(a, (s) => s.finish(lease, endEvent("done")))
      const entries = await reading
      assert.equal(entries.length, total + 1)
      const after = [await commands(a), await commands(b)]
      const producer = (after[0]?.total ?? 0) - (before[0]?.total ?? 0)
      const reader = (after[1]?.total ?? 0) - (before[1]?.total ?? 0)
      const perEvent = (producer + reader) / total
      console.log(
        `measured: redis store: ${(producer / total).toFixed(3)} producer + ${(reader / total).toFixed(3)} reader commands per event (batches of 10, one live reader) = ${perEvent.toFixed(3)}`,
      )
      assert.ok(perEvent <= 1, `${perEvent} commands per event`)
      // 200 appends one after the other, each waiting appendLingerMs (20 ms) for other streams' appends: 4 s at least
    }, 30_000)

    it("follows 40 live streams on one blocking read and one reserved connection: every reader gets its stream whole", async () => {
      // a pool of 2 connections: the 40 readers share the store's one reserved connection
      const small: Instance = ManagedRuntime.make(storeLayer({}, { maxConnections: 2, acquireTimeout: 5000 }))
      try {
        const ids = Array.from({ length: 40 }, () => EventId.makeStreamId())
        const leases = await Promise.all(ids.map((id) => use(a, (s) => s.create(id, LONG))))
        const before = await commands(small)
        const readers = ids.map((id) => readAll(small, id))
        for (let from = 1; from <= 100; from += 5) {
          await Promise.all(leases.map((lease) => use(a, (s) => s.append(lease, events(from, 5)))))
        }
        await Promise.all(leases.map((lease) => use(a, (s) => s.finish(lease, endEvent("done")))))
        const results = await Promise.all(readers)
        for (const entries of results) {
          assert.deepEqual(
            entries.map((e) => e.seq),
            Array.from({ length: 101 }, (_, i) => i + 1),
          )
          assert.equal(entries.at(-1)?.end, "done")
        }
        const after = await commands(small)
        const reads = after.xread - before.xread + (after.wake - before.wake)
        console.log(
          `measured: redis store: 40 live readers on one instance: ${after.xread - before.xread} XREAD + ${after.wake - before.wake} wake + ${after.page - before.page} page commands for ${40 * 100} events`,
        )
        assert.ok(reads < 40 * 100, `${reads} blocking reads and wakes for ${40 * 100} events`)
      } finally {
        await small.dispose()
      }
    })

    it("fails a live reader with StoreError Unavailable, never a hang, when Redis goes away", async () => {
      const own = await startRedis()
      const instance: Instance = ManagedRuntime.make(
        RedisStore.layer({ prefix: PREFIX }).pipe(Layer.provideMerge(NodeRedis.layer({ url: own.url }))),
      )
      try {
        const id = EventId.makeStreamId()
        const lease = await use(instance, (s) => s.create(id, LONG))
        await use(instance, (s) => s.append(lease, events(1, 2)))
        const before = await commands(instance)
        const reading = instance.runPromiseExit(ResumableStore.use((s) => Stream.runCollect(s.read(id, 0))))
        while ((await commands(instance)).xread === before.xread) await new Promise((resolve) => setTimeout(resolve, 5))
        const stopped = Date.now()
        await own.stop()
        const exit = await reading
        console.log(`measured: redis store: a live reader failed ${Date.now() - stopped} ms after Redis stopped`)
        assert.ok(Exit.isFailure(exit), "the read failed")
        const error = Cause.findErrorOption(exit.cause)
        assert.ok(Option.isSome(error) && error.value instanceof StoreError, Cause.pretty(exit.cause))
        assert.equal(error.value.reason, "Unavailable")
      } finally {
        await own.stop()
        await instance.dispose()
      }
    })

    it("fails with StoreError Corrupt, naming the reply, on a stream entry it did not write", async () => {
      const id = EventId.makeStreamId()
      const lease = await use(a, (s) => s.create(id, LONG))
      const { meta, log } = RedisStore.keys(id, PREFIX)
      // someone else's entry, as if written at seq 1
      await a.runPromise(Redis.Redis.use((r) => r.send("XADD", log, "0-1", "foreign", "field")))
      await a.runPromise(Redis.Redis.use((r) => r.send("HSET", meta, "last", "1")))
      await use(a, (s) => s.finish(lease, endEvent("done")))
      const error = await failure(
        b,
        ResumableStore.use((s) => Stream.runCollect(s.read(id, 0))),
      )
      assert.ok(error instanceof StoreError, String(error))
      assert.equal(error.reason, "Corrupt")
      assert.match(error.message, /foreign/)
    })

    it("fails a waiting reader with StoreError Closed when its store's layer is closed", async () => {
      const own: Instance = ManagedRuntime.make(storeLayer())
      const id = EventId.makeStreamId()
      await use(a, (s) => s.create(id, LONG))
      const before = await commands(own)
      const reading = own.runPromiseExit(ResumableStore.use((s) => Stream.runCollect(s.read(id, 0))))
      // wait until the reader is blocked in XREAD
      while ((await commands(own)).xread === before.xread) await new Promise((resolve) => setTimeout(resolve, 5))
      await own.dispose()
      const exit = await reading
      assert.ok(Exit.isFailure(exit))
      const error = Cause.findErrorOption(exit.cause)
      if (Option.isSome(error)) {
        assert.ok(error.value instanceof StoreError)
        assert.equal(error.value.reason, "Closed")
      }
    })
  })
})
