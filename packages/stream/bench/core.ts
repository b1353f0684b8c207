/**
 * The synchronous core alone (no promises, no Effect) against a synchronous bare loop, layer by layer, on the
 * 1–16 KiB and one-event-per-read workloads: where the decoder's own time goes.
 *
 *   node bench/core.ts
 */
import * as Core from "@friendli-stream/core"
import { type Codec, guardedCodec } from "../src/internal/codec.ts"
import { Decoder, type Stage } from "../src/internal/decoder.ts"
import { JsonStage } from "../src/internal/json.ts"
import { SseStage } from "../src/internal/sseStage.ts"
import { type Workload, workloads } from "./workloads.ts"

const minOf = (f: () => number): number => {
  for (let i = 0; i < 5; i++) f()
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < 21; i++) {
    const start = performance.now()
    f()
    best = Math.min(best, performance.now() - start)
  }
  return best
}

const bare = (w: Workload) => (): number => {
  const decoder = new TextDecoder()
  let buf = ""
  let n = 0
  for (const piece of w.pieces) {
    buf += decoder.decode(piece, { stream: true })
    let at = buf.indexOf("\n\n")
    while (at !== -1) {
      const ev = buf.slice(0, at)
      buf = buf.slice(at + 2)
      if (ev.startsWith("data: ")) {
        const data = ev.slice(6)
        if (data === "[DONE]") return n
        n += (JSON.parse(data) as { choices: Array<unknown> }).choices.length + 1
      }
      at = buf.indexOf("\n\n")
    }
  }
  return n
}

const run =
  <A>(w: Workload, stage: () => Stage<A>) =>
  (): number => {
    const decoder = new Decoder(stage(), { maxEventBytes: 8 << 20, requireDone: false })
    let n = 0
    for (const piece of w.pieces) {
      const more = decoder.push(piece)
      n += decoder.take().length
      if (!more) break
    }
    return n
  }

const identity: Codec<unknown> = { decode: (v) => v }
const full = guardedCodec({
  guard: Core.isCompletionChunk,
  schema: Core.CompletionChunk,
  normalize: Core.normalizeCompletionChunk,
})

for (const w of workloads(1).filter((x) => x.name === "net" || x.name === "per-event")) {
  const base = minOf(bare(w))
  const rows: Array<[string, number]> = [
    ["bare loop (sync)", base],
    ["ours: SSE events only", minOf(run(w, () => new SseStage()))],
    ["ours: + JSON.parse", minOf(run(w, () => new JsonStage(identity)))],
    ["ours: + guard + normalise", minOf(run(w, () => new JsonStage(full)))],
  ]
  console.log(`\n${w.name}: ${w.description}`)
  for (const [name, ms] of rows)
    console.log(`  ${name.padEnd(28)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / base).toFixed(2)}x`)
}
