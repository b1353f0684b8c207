/**
 * Memory: a 1 GB body (a ~3 MiB block of whole events, repeated until at least 1 GiB, read in 16 KiB pieces) decoded to the end. Reports the
 * growth of the live heap (sampled after a forced GC every 64 MiB of input) over the heap before the run.
 *
 *   node --expose-gc bench/memory.ts [--mib 1024]
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { CompletionStream, decodeCompletionStream } from "../src/index.ts"
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

const body = (sample: () => void): ReadableStream<Uint8Array> => {
  let sent = 0
  let at = 0
  let nextSample = 64 * 1024 * 1024
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total && at === 0) {
          controller.enqueue(done)
          controller.close()
          return
        }
        const piece = block.subarray(at, at + PIECE)
        at = at + PIECE >= block.length ? 0 : at + PIECE
        sent += piece.length
        if (sent >= nextSample) {
          nextSample += 64 * 1024 * 1024
          sample()
        }
        controller.enqueue(piece)
      },
    },
    { highWaterMark: 0 },
  )
}

const measure = async (name: string, run: (b: ReadableStream<Uint8Array>) => Promise<number>) => {
  gc()
  const before = process.memoryUsage().heapUsed
  let peak = before
  const sample = () => {
    gc()
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  const start = performance.now()
  const n = await run(body(sample))
  const seconds = (performance.now() - start) / 1000
  sample()
  const mib = (x: number) => (x / 1024 / 1024).toFixed(1)
  console.log(`| ${name} | ${n} | ${(MIB / 1024 / seconds).toFixed(2)} GiB/s | ${mib(peak - before)} MiB |`)
}

console.log(`\nMemory (${MIB} MiB body of logprobs chunks, 16 KiB reads; Node ${process.versions.node})\n`)
console.log("| decoder | chunks | speed | live heap growth (peak) |")
console.log("| --- | ---: | ---: | ---: |")
await measure("ours: Effect (fromReadableStream)", (b) =>
  Effect.runPromise(
    Effect.suspend(() => {
      let n = 0
      return Stream.runForEach(CompletionStream.fromReadableStream(b), () =>
        Effect.sync(() => {
          n++
        }),
      ).pipe(Effect.map(() => n))
    }),
  ),
)
await measure("ours: plain facade (for await)", async (b) => {
  let n = 0
  for await (const _ of decodeCompletionStream(b)) n++
  return n
})
