// The behaviour every ResumableStore must have, as one suite that takes the store's layer: the memory store runs it
// here (memory-store.test.ts); the Redis and Durable Object stores import it by relative path and run it too.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import {
  type CreateOptions,
  type Entry,
  EventId,
  endEvent,
  InvalidEventId,
  LeaseLost,
  ResumableStore,
  StreamExists,
  StreamNotFound,
} from "../src/index.ts"

/** A store under test. */
export interface StoreContractOptions<R> {
  /** Shown in the suite's name ("memory", "redis", "durable object"). */
  readonly name: string
  /** The store, built once for the suite (and closed after it). */
  readonly layer: Layer.Layer<ResumableStore | R, unknown>
  /** Whether anything of a stream (entries, keys, timers) is still held: false once its retention time is over. */
  readonly holds?: (streamId: string) => Effect.Effect<boolean, unknown, ResumableStore | R>
  /** Skip the whole suite with this reason (e.g. no redis-server). */
  readonly skip?: string | undefined
  /** Per-test timeout (default 20 s). */
  readonly timeoutMs?: number
  /** The store refuses a seq past its last entry with `InvalidEventId` reason `NotSent` (else: an empty stream). */
  readonly refusesUnsentSeq?: boolean
}

const LONG: CreateOptions = { leaseMs: 30_000, retentionMs: 60_000, maxDurationMs: 60_000 }

const events = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ data: JSON.stringify({ n: from + i }) }))

/** Polls `check` every 20 ms until it holds (or `limitMs` passes: then the test fails naming what it waited for). */
const eventually = async (what: string, check: () => Promise<boolean>, limitMs = 15_000): Promise<number> => {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > limitMs) assert.fail(`waited ${limitMs} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return Date.now() - start
}

/** The store contract, as a `describe` block. */
export const storeContract = <R>(options: StoreContractOptions<R>): void => {
  const timeout = options.timeoutMs ?? 20_000
  describe.skipIf(options.skip)(`ResumableStore contract: ${options.name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<ResumableStore | R, unknown>
    beforeAll(() => {
      runtime = ManagedRuntime.make(options.layer)
    })
    afterAll(async () => {
      await runtime?.dispose()
    })

    const run = <A, E>(effect: Effect.Effect<A, E, ResumableStore | R>): Promise<A> => runtime.runPromise(effect)
    const store = <A, E>(f: (s: ResumableStore["Service"]) => Effect.Effect<A, E>): Promise<A> =>
      run(ResumableStore.use(f))
    const failure = async <A, E>(f: (s: ResumableStore["Service"]) => Effect.Effect<A, E>): Promise<E> => {
      const exit = await runtime.runPromiseExit(ResumableStore.use(f))
      assert.ok(Exit.isFailure(exit), `expected a failure, got ${JSON.stringify(Exit.isSuccess(exit) && exit.value)}`)
      const error = Cause.findErrorOption(exit.cause)
      assert.ok(Option.isSome(error), `expected a typed failure, got ${Cause.pretty(exit.cause)}`)
      return error.value as E
    }
    const readAll = (streamId: string, afterSeq = 0, pageSize?: number): Promise<Array<Entry>> =>
      store((s) => Stream.runCollect(s.read(streamId, afterSeq, pageSize === undefined ? undefined : { pageSize })))
    const assertNotSent = async (streamId: string, afterSeq: number, lastSeq: number): Promise<void> => {
      const error = await failure((s) => Stream.runCollect(s.read(streamId, afterSeq)))
      assert.ok(error instanceof InvalidEventId, `expected InvalidEventId, got ${String(error)}`)
      assert.equal(error.reason, "NotSent")
      assert.equal(error.eventId, `${streamId}.${afterSeq}`)
      assert.match(error.message, new RegExp(`${afterSeq}.*stored ${lastSeq} event`))
    }

    it(
      "numbers appended batches 1, 2, 3… and stores the end as the last entry",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        assert.equal(await store((s) => s.append(lease, events(1, 3))), 3)
        assert.equal(await store((s) => s.append(lease, [{ event: "tool_status", data: "x" }])), 4)
        assert.equal(await store((s) => s.append(lease, [])), 4)
        assert.equal(await store((s) => s.append(lease, events(5, 2))), 6)
        await store((s) => s.finish(lease, endEvent("done")))
        const entries = await readAll(id)
        assert.deepEqual(
          entries.map((e) => e.seq),
          [1, 2, 3, 4, 5, 6, 7],
        )
        assert.equal(entries[3]?.event, "tool_status")
        assert.equal(entries[0]?.event, undefined)
        assert.deepEqual(entries.at(-1), { seq: 7, event: undefined, data: "[DONE]", end: "done" })
        assert.ok(entries.slice(0, -1).every((e) => e.end === undefined))
      },
      timeout,
    )

    it(
      "replays after a seq: the rest and the end, in pages, and nothing after the end",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        await store((s) => s.append(lease, events(1, 10)))
        await store((s) => s.finish(lease, endEvent("error", "upstream failed")))
        const all = await readAll(id)
        for (const pageSize of [1, 3, 10, 100]) {
          assert.deepEqual(await readAll(id, 0, pageSize), all, `pageSize ${pageSize}`)
          assert.deepEqual(await readAll(id, 4, pageSize), all.slice(4), `pageSize ${pageSize} after 4`)
        }
        assert.deepEqual(await readAll(id, 10), all.slice(10))
        assert.equal(all.at(-1)?.end, "error")
        assert.equal(all.at(-1)?.event, "error")
        assert.match(all.at(-1)?.data ?? "", /upstream failed/)
        assert.deepEqual(await readAll(id, 11), [])
        if (options.refusesUnsentSeq) await assertNotSent(id, 1000, 11)
        else assert.deepEqual(await readAll(id, 1000), [])
      },
      timeout,
    )

    it.skipIf(!options.refusesUnsentSeq ? "this store waits for a seq it has not stored" : undefined)(
      "refuses a seq past the last stored event of a live stream, naming it, instead of waiting for it",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        await store((s) => s.append(lease, events(1, 3)))
        await assertNotSent(id, 4, 3)
        await assertNotSent(id, 99, 3)
        const next = await store((s) => Stream.runCollect(Stream.take(s.read(id, 2), 1)))
        assert.deepEqual(
          next.map((e) => e.seq),
          [3],
        )
        await store((s) => s.finish(lease, endEvent("done")))
      },
      timeout,
    )

    it(
      "hands a live reader each batch as it is appended, then the end",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        const seen: Array<Entry> = []
        let wake: (() => void) | undefined
        const next = () => new Promise<void>((resolve) => (wake = resolve))
        let arrived = next()
        const reading = store((s) =>
          Stream.runForEach(s.read(id, 0), (entry) =>
            Effect.sync(() => {
              seen.push(entry)
              wake?.()
            }),
          ),
        )
        for (let i = 1; i <= 5; i++) {
          await store((s) => s.append(lease, events(i, 1)))
          await arrived
          arrived = next()
          assert.equal(seen.length, i, "the reader saw the batch before the next one was appended")
        }
        await store((s) => s.finish(lease, endEvent("done")))
        await reading
        assert.deepEqual(
          seen.map((e) => e.seq),
          [1, 2, 3, 4, 5, 6],
        )
        assert.equal(seen.at(-1)?.end, "done")
      },
      timeout,
    )

    it(
      "gives concurrent readers the same entries, live and replayed",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        await store((s) => s.append(lease, events(1, 3)))
        const readers = [readAll(id), readAll(id, 2), readAll(id)]
        for (let i = 4; i <= 20; i++) await store((s) => s.append(lease, events(i, 1)))
        await store((s) => s.finish(lease, endEvent("done")))
        const [a, b, c] = await Promise.all(readers)
        assert.equal(a?.length, 21)
        assert.deepEqual(a, c)
        assert.deepEqual(b, a?.slice(2))
      },
      timeout,
    )

    it(
      "never re-uses a stream id: a second create fails with StreamExists, also after the end",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        assert.ok((await failure((s) => s.create(id, LONG))) instanceof StreamExists)
        await store((s) => s.finish(lease, endEvent("done")))
        const error = await failure((s) => s.create(id, LONG))
        assert.ok(error instanceof StreamExists)
        assert.equal(error.streamId, id)
      },
      timeout,
    )

    it(
      "answers StreamNotFound for a stream it does not know, on read and cancel",
      async () => {
        const id = EventId.makeStreamId()
        const read = await failure((s) => Stream.runCollect(s.read(id, 0)))
        assert.ok(read instanceof StreamNotFound)
        assert.ok(read.message.includes(id), read.message)
        assert.ok((await failure((s) => s.cancel(id))) instanceof StreamNotFound)
      },
      timeout,
    )

    it(
      "cancels at once: readers get a cancelled end, the producer's lease fails with Cancelled, a second cancel finds it ended",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        await store((s) => s.append(lease, events(1, 2)))
        const reading = readAll(id)
        assert.equal(await store((s) => s.cancel(id)), "cancelled")
        const entries = await reading
        assert.deepEqual(
          entries.map((e) => [e.seq, e.end]),
          [
            [1, undefined],
            [2, undefined],
            [3, "cancelled"],
          ],
        )
        assert.deepEqual(entries.at(-1), { seq: 3, event: "error", data: endEvent("cancelled").data, end: "cancelled" })
        for (const attempt of [
          (s: ResumableStore["Service"]) => s.append(lease, events(3, 1)),
          (s: ResumableStore["Service"]) => s.renew(lease),
          (s: ResumableStore["Service"]) => s.finish(lease, endEvent("done")),
        ]) {
          const error = await failure(attempt)
          assert.ok(error instanceof LeaseLost, String(error))
          assert.equal(error.reason, "Cancelled")
        }
        assert.equal(await store((s) => s.cancel(id)), "already_ended")
        assert.equal((await readAll(id)).length, 3, "nothing was written after the cancel")
      },
      timeout,
    )

    it(
      "fences a finished stream: writes with its lease fail with Ended",
      async () => {
        const id = EventId.makeStreamId()
        const lease = await store((s) => s.create(id, LONG))
        await store((s) => s.finish(lease, endEvent("done")))
        const error = await failure((s) => s.append(lease, events(1, 1)))
        assert.ok(error instanceof LeaseLost)
        assert.equal(error.reason, "Ended")
        assert.equal(await store((s) => s.cancel(id)), "already_ended")
      },
      timeout,
    )

    it(
      "ends a stream whose producer stops renewing with producer_lost, for waiting readers and later ones, and fences the old lease",
      async () => {
        const id = EventId.makeStreamId()
        const leaseMs = 300
        const lease = await store((s) => s.create(id, { ...LONG, leaseMs }))
        await store((s) => s.append(lease, events(1, 2)))
        const start = Date.now()
        const entries = await readAll(id)
        const waited = Date.now() - start
        console.log(
          `measured: ${options.name} store: producer_lost reached a waiting reader ${waited} ms after the last write (lease ${leaseMs} ms)`,
        )
        assert.deepEqual(
          entries.map((e) => [e.seq, e.end]),
          [
            [1, undefined],
            [2, undefined],
            [3, "producer_lost"],
          ],
        )
        assert.equal(entries[2]?.event, "error")
        assert.match(entries[2]?.data ?? "", /producer_lost/)
        assert.deepEqual(await readAll(id), entries, "a later reader gets the same end")
        const error = await failure((s) => s.append(lease, events(3, 1)))
        assert.ok(error instanceof LeaseLost)
        assert.equal(error.reason, "Expired")
        assert.equal((await failure((s) => s.renew(lease)))._tag, "LeaseLost")
      },
      timeout,
    )

    it(
      "keeps a stream alive while its producer renews the lease",
      async () => {
        const id = EventId.makeStreamId()
        const leaseMs = 1500
        const lease = await store((s) => s.create(id, { ...LONG, leaseMs }))
        const start = Date.now()
        let n = 0
        // renewing every 100 ms for twice the lease time: the lease would have expired without the renewals
        while (Date.now() - start < 2 * leaseMs) {
          await store((s) => s.renew(lease))
          n = await store((s) => s.append(lease, events(n + 1, 1)))
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        await store((s) => s.finish(lease, endEvent("done")))
        const entries = await readAll(id)
        assert.equal(entries.length, n + 1)
        assert.equal(entries.at(-1)?.end, "done")
      },
      timeout,
    )

    it(
      "forgets an ended stream after its retention time: then StreamNotFound, and nothing of it is left",
      async () => {
        const id = EventId.makeStreamId()
        const retentionMs = 300
        const lease = await store((s) => s.create(id, { ...LONG, retentionMs }))
        await store((s) => s.append(lease, events(1, 2)))
        await store((s) => s.finish(lease, endEvent("done")))
        const ended = Date.now()
        assert.equal((await readAll(id)).length, 3, "readable right after the end")
        await eventually("the stream to be forgotten", async () => {
          const exit = await runtime.runPromiseExit(ResumableStore.use((s) => Stream.runCollect(s.read(id, 0))))
          return Exit.isFailure(exit)
        })
        console.log(
          `measured: ${options.name} store: forgotten ${Date.now() - ended} ms after its end (retention ${retentionMs} ms)`,
        )
        assert.ok((await failure((s) => Stream.runCollect(s.read(id, 0)))) instanceof StreamNotFound)
        if (options.holds !== undefined) {
          const holds = options.holds
          await eventually("nothing of the stream to be held", async () => !(await run(holds(id))))
        }
      },
      timeout,
    )

    it(
      "forgets a stream whose producer was lost after the retention time too",
      async () => {
        const id = EventId.makeStreamId()
        await store((s) => s.create(id, { leaseMs: 200, retentionMs: 200, maxDurationMs: 60_000 }))
        const entries = await readAll(id)
        assert.deepEqual(
          entries.map((e) => e.end),
          ["producer_lost"],
        )
        await eventually("the stream to be forgotten", async () => {
          const exit = await runtime.runPromiseExit(ResumableStore.use((s) => Stream.runCollect(s.read(id, 0))))
          return Exit.isFailure(exit)
        })
        if (options.holds !== undefined) {
          const holds = options.holds
          await eventually("nothing of the stream to be held", async () => !(await run(holds(id))))
        }
      },
      timeout,
    )
  })
}
