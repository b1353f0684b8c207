/**
 * The synchronous core alone (no promises, no Effect) against a synchronous bare loop, layer by layer: where the
 * decoder's own time goes. Each layer runs in a process of its own, so that the JIT sees one stage and one codec, as in
 * a program that decodes one kind of stream.
 *
 *   node bench/core.ts                 every layer on the 1–16 KiB, logprobs and one-event-per-read workloads
 *   node bench/core.ts <layer> <workload>
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as Core from "@friendli-stream/core"
import { type Codec, guardedCodec, unchanged } from "../src/internal/codec.ts"
import { Decoder, type Stage } from "../src/internal/decoder.ts"
import { JsonStage } from "../src/internal/json.ts"
import { SseStage } from "../src/internal/sseStage.ts"
import { type Workload, workloads } from "./workloads.ts"

const LAYERS = {
  "SSE events only": () => new SseStage(),
  "+ JSON.parse": () => new JsonStage<unknown>({ decode: (v) => v } satisfies Codec<unknown>),
  "+ guard": () =>
    new JsonStage(
      guardedCodec({
        guard: Core.isCompletionChunk,
        schema: Core.CompletionChunk,
        normalize: unchanged,
      }),
    ),
} satisfies Record<string, () => Stage<unknown>>
type Layer = keyof typeof LAYERS
const WORKLOADS = ["net", "logprobs", "per-event"]

const best = (f: () => number): number => {
  for (let i = 0; i < 5; i++) f()
  let min = Number.POSITIVE_INFINITY
  for (let i = 0; i < 31; i++) {
    const start = performance.now()
    f()
    min = Math.min(min, performance.now() - start)
  }
  return min
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

const ours = (w: Workload, layer: Layer) => (): number => {
  const decoder = new Decoder(LAYERS[layer](), { maxEventBytes: 8 << 20, requireDone: false })
  let n = 0
  for (const piece of w.pieces) {
    const more = decoder.push(piece)
    n += decoder.take().length
    if (!more) break
  }
  return n
}

const [layer, name] = process.argv.slice(2)
if (layer !== undefined && name !== undefined) {
  // One layer on one workload: prints the bare loop's time and ours.
  const w = workloads(1).find((x) => x.name === name)
  if (w === undefined || !(layer in LAYERS)) throw new Error(`unknown layer or workload: ${layer}, ${name}`)
  console.log(JSON.stringify([best(bare(w)), best(ours(w, layer as Layer))]))
} else {
  const self = fileURLToPath(import.meta.url)
  for (const w of WORKLOADS) {
    console.log(`\n${w} (best of 31 runs; ratio to the bare loop measured in the same process)`)
    for (const l of Object.keys(LAYERS)) {
      const r = spawnSync(process.execPath, [self, l, w], { encoding: "utf8" })
      if (r.status !== 0) throw new Error(r.stderr)
      const [base, time] = JSON.parse(r.stdout) as [number, number]
      console.log(`  ${l.padEnd(22)} ${time.toFixed(1).padStart(6)} ms  ${(time / base).toFixed(2)}x`)
    }
  }
}
