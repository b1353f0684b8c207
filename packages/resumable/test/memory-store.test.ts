import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { EventId, endEvent, MemoryStore, ResumableStore } from "../src/index.ts"
import { storeContract } from "./store-contract.ts"

storeContract({
  name: "memory",
  refusesUnsentSeq: true,
  layer: MemoryStore.layer(),
  holds: (streamId) => MemoryStore.MemoryStore.use((m) => m.holds(streamId)),
})

describe("MemoryStore", () => {
  let runtime: ManagedRuntime.ManagedRuntime<ResumableStore | MemoryStore.MemoryStore, never>
  beforeAll(() => {
    runtime = ManagedRuntime.make(MemoryStore.layer({ pageSize: 2 }))
  })
  afterAll(async () => {
    await runtime?.dispose()
  })

  it("holds no stream, timer or reader once every stream's retention time is over", async () => {
    const options = { leaseMs: 200, retentionMs: 100, maxDurationMs: 10_000 }
    await runtime.runPromise(
      Effect.gen(function* () {
        const store = yield* ResumableStore
        const finished = yield* store.create(EventId.makeStreamId(), options)
        yield* store.append(finished, [{ data: "a" }, { data: "b" }, { data: "c" }])
        yield* store.finish(finished, endEvent("done"))
        const cancelled = EventId.makeStreamId()
        yield* store.create(cancelled, options)
        yield* store.cancel(cancelled)
        const lost = EventId.makeStreamId()
        yield* store.create(lost, options)
        yield* Stream.runDrain(store.read(lost, 0))
      }),
    )
    const size = () => runtime.runPromise(MemoryStore.MemoryStore.use((m) => m.size))
    const start = Date.now()
    while ((await size()).streams > 0 || (await size()).timers > 0) {
      assert.ok(Date.now() - start < 10_000, `still held after 10 s: ${JSON.stringify(await size())}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    assert.deepEqual(await size(), { streams: 0, timers: 0, waitingReaders: 0 })
  })

  it("fails a waiting reader with StoreError Closed when the store's layer is closed", async () => {
    const own = ManagedRuntime.make(MemoryStore.layer())
    const id = EventId.makeStreamId()
    await own.runPromise(
      ResumableStore.use((s) => s.create(id, { leaseMs: 60_000, retentionMs: 60_000, maxDurationMs: 60_000 })),
    )
    const reading = own.runPromiseExit(ResumableStore.use((s) => Stream.runCollect(s.read(id, 0))))
    while ((await own.runPromise(MemoryStore.MemoryStore.use((m) => m.size))).waitingReaders === 0) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await own.dispose()
    const exit = await reading
    assert.equal(exit._tag, "Failure")
  })
})
