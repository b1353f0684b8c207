// Several service processes on one real Redis (the harness's redis-server on a free port): a stream started on one
// instance resumes on another, a producer killed with SIGKILL ends its stream as "producer lost", ended streams are
// forgotten after their retention time, and random drops and resumes across the instances, with the mock's faults,
// lose, repeat and reorder nothing. Skipped with the reason where there is no redis-server (failing under CI).
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { redisSkip, type StartedRedis, startRedis } from "@friendli-stream/test-harness/redis"
import {
  endReasonOf,
  type IdEvent,
  isEnd,
  locationOf,
  type Opened,
  readAll,
  readSome,
  resume,
  start,
} from "./events.ts"
import { type ServiceCommand, type ServiceProcess, startService } from "./processes.ts"
import { assertWhole } from "./resumable.ts"
import { textOf } from "./sse.ts"

const STORY = { prompt: "Tell me a story", max_tokens: 24 }

/** A small seeded PRNG (mulberry32): the fuzz's drops, instances and faults come from it, so a failure repeats. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Queues a fault spec on a service's embedded mock: its next upstream request takes it. */
const queueFaults = async (service: ServiceProcess, spec: string): Promise<void> => {
  const res = await fetch(`${service.mockUrl}/_mock/faults`, { method: "POST", body: spec })
  assert.equal(res.status, 200, `${spec}: ${await res.text()}`)
}

/** How many keys of one Redis name a stream (after its retention time: none). Inline commands over node:net. */
const redisKeysOf = async (redis: StartedRedis, streamId: string): Promise<number> => {
  const { createConnection } = await import("node:net")
  return await new Promise<number>((resolve, reject) => {
    const socket = createConnection({ host: redis.host, port: redis.port })
    let reply = ""
    socket.once("error", reject)
    socket.once("connect", () => socket.write(`KEYS *${streamId}*\r\n`))
    socket.on("data", (chunk: Uint8Array) => {
      reply += new TextDecoder().decode(chunk)
      const count = /^\*(-?\d+)\r\n/.exec(reply)
      if (count === null) return
      const n = Math.max(0, Number(count[1]))
      // the array header, then each key as $len\r\nkey\r\n
      if (reply.split("\r\n").length >= 2 + 2 * n) {
        socket.destroy()
        resolve(n)
      }
    })
  })
}

const answerOf = (events: ReadonlyArray<IdEvent>) => ({
  text: textOf(events.filter((e) => !isEnd(e)).map((e) => e.data)),
  count: events.length,
  end: endReasonOf(events.at(-1)!),
})

const streamIdOf = (opened: Opened): string => locationOf(opened.res).split("/").at(-1)!

export const clusterTests = (name: string, service: ServiceCommand): void =>
  describe.skipIf(redisSkip())(`two ${name} services on one Redis`, () => {
    let redis: StartedRedis
    let a: ServiceProcess
    let b: ServiceProcess
    const started: Array<ServiceProcess> = []
    const spawnService = async (env: Readonly<Record<string, string>> = {}): Promise<ServiceProcess> => {
      const s = await startService(service, { REDIS_URL: redis.url, MOCK_FAULTS: "delay:10", ...env })
      started.push(s)
      return s
    }

    beforeAll(async () => {
      redis = await startRedis()
      ;[a, b] = await Promise.all([spawnService(), spawnService()])
    }, 60_000)
    afterAll(async () => {
      await Promise.all(started.map((s) => s.kill()))
      await redis?.stop()
    }, 30_000)

    it("resumes on B a stream started on A whose reader was dropped after k events: the whole answer exactly once, the same as an uninterrupted one; again after the end, the rest and the end", async () => {
      const uninterrupted = await readAll((await start(a.url, STORY)).events)
      const first = await start(a.url, STORY)
      assert.equal(first.res.status, 200)
      const location = locationOf(first.res)
      const before = await readSome(first.events, 4)
      await first.events.drop()
      const onB = await resume(b.url, location, before.at(-1)!.id)
      assert.equal(onB.res.status, 200, a.output() + b.output())
      const after = await readAll(onB.events)
      const whole = [...before, ...after]
      assertWhole(whole, streamIdOf(first))
      assert.deepEqual(answerOf(whole), answerOf(uninterrupted))
      // the stream has ended: from event 2 again, on either instance, the rest and the end
      for (const instance of [b, a]) {
        const rest = await readAll((await resume(instance.url, location, whole[1]!.id)).events)
        assert.deepEqual(rest, whole.slice(2))
      }
      const past = await fetch(new URL(location, b.url), { headers: { "last-event-id": whole.at(-1)!.id! } })
      assert.equal(past.status, 204)
    }, 60_000)

    it("forgets an ended stream after its retention time: 404 on every instance, and its Redis keys are gone", async () => {
      const short = await spawnService({ RESUMABLE_RETENTION_MS: "1000" })
      const opened = await start(short.url, { prompt: "Hi", max_tokens: 3 })
      const streamId = streamIdOf(opened)
      const location = locationOf(opened.res)
      await readAll(opened.events)
      const endedAt = Date.now()
      assert.ok((await redisKeysOf(redis, streamId)) > 0, "the stream is in Redis while it is retained")
      // wait for the 404 (polled), with a deadline far above the retention time only against a hang
      for (;;) {
        const res = await fetch(new URL(location, b.url))
        await res.body?.cancel()
        if (res.status === 404) break
        assert.ok(Date.now() - endedAt < 30_000, `still ${res.status} ${Date.now() - endedAt} ms after the end`)
        await new Promise((r) => setTimeout(r, 100))
      }
      console.log(
        `measured: ${name} stream with 1000 ms retention answered 404 ${Date.now() - endedAt} ms after its end`,
      )
      const onA = await fetch(new URL(location, a.url))
      assert.equal(onA.status, 404)
      assert.match(((await onA.json()) as { error: { message: string } }).error.message, new RegExp(streamId))
      assert.equal(await redisKeysOf(redis, streamId), 0)
    }, 60_000)

    it("ends a stream whose producer was killed with SIGKILL as 'producer lost' on B, after every event stored before the kill", async () => {
      const doomed = await spawnService({ RESUMABLE_LEASE_MS: "1000" })
      // 5 tokens, then nothing until the producer goes away: the stream cannot end before the kill
      await queueFaults(doomed, "stall:5")
      const opened = await start(doomed.url, { prompt: "a long story", max_tokens: 2000 })
      const location = locationOf(opened.res)
      const before = await readSome(opened.events, 3)
      await doomed.kill()
      const killedAt = Date.now()
      await opened.events.drop()
      const after = await readAll((await resume(b.url, location, before.at(-1)!.id)).events)
      const whole = [...before, ...after]
      assertWhole(whole, streamIdOf(opened))
      assert.equal(endReasonOf(whole.at(-1)!), "producer_lost", JSON.stringify(whole.at(-1)))
      console.log(
        `measured: ${name} producer killed after ${before.length} events read: B ended the stream as producer_lost ${Date.now() - killedAt} ms after the kill (lease 1000 ms), after ${after.length - 1} more stored events`,
      )
      // the 3 read, those of the other 2 that were stored before the kill, then the end
      assert.ok(whole.length >= 4 && whole.length <= 6, `${whole.length} events`)
      // a replay from the start on A: the same events, the same end
      assert.deepEqual(await readAll((await resume(a.url, location)).events), whole)
    }, 60_000)

    it("loses, repeats and reorders nothing under random drops and resumes across the instances, with the mock's faults, and ends every stream with a typed end (seeded)", async () => {
      const seed = 20
      const random = prng(seed)
      const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
      // every fault at least once (a delay, 1-byte reads, a cut, an in-stream error, several events per read, a slow
      // first answer), the instances and the drop points at random
      const faults = ["delay:5", "bytes:1,delay:2", "truncate:6", "error:5", "coalesce:3,delay:4", "delay-first:40"]
      const streams = 2 * faults.length
      const ends = new Map<string, number>()
      let resumes = 0
      for (let n = 0; n < streams; n++) {
        const spec = faults[n % faults.length]!
        const producer = pick([a, b])
        await queueFaults(producer, spec)
        const opened = await start(producer.url, {
          prompt: `Story number ${n}`,
          max_tokens: 12 + Math.floor(random() * 20),
        })
        assert.equal(opened.res.status, 200, spec)
        const location = locationOf(opened.res)
        const seen: Array<IdEvent> = []
        let reader = opened
        for (let round = 0; round < 100; round++) {
          const got = await readSome(reader.events, 1 + Math.floor(random() * 5))
          seen.push(...got)
          if (got.length > 0 && isEnd(got.at(-1)!)) break
          await reader.events.drop()
          reader = await resume(pick([a, b]).url, location, seen.at(-1)?.id)
          assert.equal(reader.res.status, 200, `${spec}: resume after ${seen.length} events`)
          resumes++
        }
        await reader.events.drop()
        const context = `seed ${seed}, stream ${n}, faults ${spec}`
        assertWhole(seen, streamIdOf(opened))
        const reason = endReasonOf(seen.at(-1)!)
        if (spec.startsWith("truncate")) assert.equal(reason, "truncated", context)
        else if (spec.startsWith("error")) assert.equal(seen.at(-1)!.event, "error", context)
        else assert.equal(reason, "done", context)
        ends.set(reason, (ends.get(reason) ?? 0) + 1)
        // what the reader put together is what the store holds
        assert.deepEqual(await readAll((await resume(pick([a, b]).url, location)).events), seen, context)
      }
      console.log(
        `measured: ${name} fuzz (seed ${seed}): ${streams} streams, ${resumes} resumes, ends ${JSON.stringify([...ends])}`,
      )
    }, 120_000)
  })
