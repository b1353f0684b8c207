// Random drops and resumes against the mock with faults: no event lost, repeated or reordered, every end typed.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import type { SseEvent } from "@friendli-stream/test-harness/fixtures"
import fc from "fast-check"
import { END_REASONS } from "../src/index.ts"
import {
  eventsOf,
  type Harness,
  post,
  readThenDrop,
  resume,
  sentData,
  startHarness,
  streamUrl,
  uniquePrompt,
  upstreamOf,
} from "./support.ts"

const RUNS = 50

/** Fault switches a run may combine (K filled in from the run's draw). */
const faultArb = fc
  .record({
    delay: fc.option(fc.constantFrom("delay:1", "delay:4"), { nil: undefined }),
    bytes: fc.option(fc.constantFrom("bytes:1", "bytes:7", "coalesce:3", "comments"), { nil: undefined }),
    end: fc.option(
      fc
        .tuple(fc.constantFrom("error", "truncate", "reset"), fc.integer({ min: 0, max: 8 }))
        .map(([f, k]) => `${f}:${k}`),
      { nil: undefined },
    ),
  })
  .map((f) => [f.delay, f.bytes, f.end].filter((x) => x !== undefined).join(","))

/** Reads a stream to its end through drops after `drops[i]` events each, resuming with the last id seen. */
const readWithDrops = async (
  first: Response,
  controller: AbortController,
  url: string,
  drops: ReadonlyArray<number>,
): Promise<{ events: Array<SseEvent>; connections: number }> => {
  const events: Array<SseEvent> = []
  let response = first
  let abort = controller
  let connections = 1
  for (const drop of drops) {
    const got = await readThenDrop(response, drop, abort)
    events.push(...got)
    if (got.length < drop) return { events, connections } // the stream ended before the drop point
    abort = new AbortController()
    response = await resume(url, events.at(-1)?.id, abort.signal)
    connections++
    if (response.status === 204) return { events, connections }
    assert.equal(response.status, 200)
  }
  events.push(...(await eventsOf(response)))
  return { events, connections }
}

describe("ResumableHandler under random drops and faults", () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ retentionMs: 60_000 })
  })
  afterAll(async () => {
    await h?.close()
  })

  it("delivers every event exactly once and in order through any drops, and ends every stream with a typed end", async () => {
    let connections = 0
    const ends = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 24 }),
        faultArb,
        fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 5 }),
        async (maxTokens, faults, drops) => {
          const prompt = uniquePrompt("fuzz")
          const controller = new AbortController()
          const first = await post(
            h,
            { prompt, max_tokens: maxTokens, ...(faults ? { faults } : {}) },
            controller.signal,
          )
          assert.equal(first.status, 200)
          const url = streamUrl(h, first)
          const streamId = url.slice(url.lastIndexOf("/") + 1)
          const read = await readWithDrops(first, controller, url, drops)
          connections += read.connections
          const { events } = read
          assert.deepEqual(
            events.map((e) => e.id),
            events.map((_, i) => `${streamId}.${i + 1}`),
            "ids 1, 2, 3… with no gap or repeat",
          )
          assert.deepEqual(await eventsOf(await resume(url)), events, "equal to an uninterrupted read")
          const end = events.at(-1)
          assert.ok(end !== undefined)
          let reason: string
          if (end.data === "[DONE]") reason = "done"
          else {
            assert.equal(end.event, "error", `a typed end, got ${JSON.stringify(end)}`)
            const code = (JSON.parse(end.data) as { error: { code: unknown } }).error.code
            reason = (END_REASONS as ReadonlyArray<unknown>).includes(code) ? String(code) : "error"
            if (code === "mock_stream_error") assert.match(faults, /error:/)
          }
          ends.set(reason, (ends.get(reason) ?? 0) + 1)
          const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
          const sent = sentData(record).filter((d) => !d.includes('"mock_stream_error"'))
          const body = events.filter((e) => e.event !== "error").map((e) => e.data)
          if (reason === "done" || (reason === "error" && !/reset/.test(faults))) assert.deepEqual(body, sent)
          else assert.deepEqual(body, sent.slice(0, body.length), "a prefix of what the mock sent")
          if (/truncate/.test(faults) && reason !== "done") assert.equal(reason, "truncated")
        },
      ),
      { numRuns: RUNS },
    )
    console.log(
      `measured: fuzz: ${RUNS} streams read through ${connections} connections; ends ${JSON.stringify(Object.fromEntries(ends))}`,
    )
  }, 120_000)
})
