/**
 * Memory: a 1 GiB body (a ~3 MiB block of whole events, repeated until at least 1 GiB, read in 16 KiB pieces) decoded
 * to the end by the client (on a fake `fetch`), the facade and the Effect API. Reports the growth of the live heap
 * (sampled after a forced GC every 64 MiB of input) over the heap before the run.
 *
 *   node --expose-gc bench/memory.ts [--mib 1024]
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { CompletionStream, decodeCompletionStream } from "../src/index.ts"
import { benchClient, fakeFetch, request } from "./client.ts"
import { events } from "./workloads.ts"

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("run with --expose-gc")
const i = process.argv.indexOf("--mib")
const MIB = i === -1 ? 1024 : Number(process.argv[i + 1])

const encoder = new TextEncoder()
const all = events(8000, true)
const done = encoder.encode(all.pop() as string)
const block = encoder.encode(all.join(""))
const PIECE = 16 * 1024
const total = MIB * 1024 * 1024
// A forced GC and a sample every 64 MiB of input (more often on a smaller body, e.g. under `--quick`).
const EVERY = Math.min(64, Math.max(1, MIB / 8)) * 1024 * 1024

/** The body: whole blocks until at least `bytes`, then `[DONE]`; `sample` every {@link EVERY} bytes. */
const body = (bytes: number, sample: () => void): ReadableStream<Uint8Array> => {
  let sent = 0
  let at = 0
  let nextSample = EVERY
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= bytes && at === 0) {
          controller.enqueue(done)
          controller.close()
          return
        }
        const piece = block.subarray(at, at + PIECE)
        at = at + PIECE >= block.length ? 0 : at + PIECE
        sent += piece.length
        if (sent >= nextSample) {
          nextSample += EVERY
          sample()
        }
        controller.enqueue(piece)
      },
    },
    { highWaterMark: 0 },
  )
}

const TARGET_MIB = 32
const misses: Array<string> = []

const measure = async (name: string, run: (b: ReadableStream<Uint8Array>) => Promise<number>) => {
  // A short warm-up run first, so that what is allocated once per process (compiled schemas, Effect's runtime, the
  // JIT's feedback) is not counted as the stream's growth.
  await run(body(1, () => {}))
  gc()
  const before = process.memoryUsage().heapUsed
  let peak = before
  const sample = () => {
    gc()
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  const start = performance.now()
  const n = await run(body(total, sample))
  const seconds = (performance.now() - start) / 1000
  sample()
  const growth = (peak - before) / 1024 / 1024
  const verdict = growth < TARGET_MIB ? "met" : `**MISSED** by ${(growth - TARGET_MIB).toFixed(1)} MiB`
  if (growth >= TARGET_MIB) misses.push(`${name}: ${growth.toFixed(1)} MiB`)
  console.log(`| ${name} | ${n} | ${(MIB / 1024 / seconds).toFixed(2)} GiB/s | ${growth.toFixed(1)} MiB | ${verdict} |`)
}

const runForEachCount = <E>(stream: Stream.Stream<unknown, E>): Promise<number> =>
  Effect.runPromise(
    Effect.suspend(() => {
      let n = 0
      return Stream.runForEach(stream, () =>
        Effect.sync(() => {
          n++
        }),
      ).pipe(Effect.map(() => n))
    }),
  )

const fake = fakeFetch()
const client = await benchClient(fake.fetch, "http://bench.invalid")

console.log(
  `\nMemory (Node ${process.versions.node}; a ${MIB} MiB body of logprobs chunks in 16 KiB reads, decoded to the end; ` +
    `live heap after a forced GC every ${EVERY / 1024 / 1024} MiB, over the heap before the run (after a warm-up run); target: growth < ${TARGET_MIB} MiB)\n`,
)
console.log("| decoder | chunks | speed | live heap growth (peak) | target |")
console.log("| --- | ---: | ---: | ---: | --- |")
await measure("ours: client completions.stream + runForEach", (b) => {
  fake.answerWith(b)
  return runForEachCount(client.completions.stream(request))
})
await measure("ours: facade decodeCompletionStream (for await)", async (b) => {
  let n = 0
  for await (const _ of decodeCompletionStream(b)) n++
  return n
})
await measure("ours: Effect API fromReadableStream + runForEach", (b) =>
  runForEachCount(CompletionStream.fromReadableStream(b)),
)
console.log(`\nMemory targets: ${misses.length === 0 ? "all met" : `${misses.length} missed`}`)
for (const m of misses) console.log(`- missed: ${m}`)
