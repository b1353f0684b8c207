/**
 * Throughput: every decoder on every workload, in one process, interleaved rounds, medians. Prints one Markdown table
 * per workload: time, ratio to the bare loop, and the target of the rows that have one.
 *
 *   node --expose-gc bench/throughput.ts [--scale 0.1] [--rounds 11] [--only name,name] [--clock cpu]
 */
import { loadavg } from "node:os"
import { BARE, decoders, FLOOR, type Row } from "./decoders.ts"
import { queuedBody, workloads } from "./workloads.ts"

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback)
}
const scale = Number(arg("scale", "1"))
const rounds = Number(arg("rounds", "11"))
const only = arg("only", "")
// `--clock cpu` times with the process's CPU time (user + system), steadier than wall time on a busy machine.
const cpu = arg("clock", "wall") === "cpu"
const now = cpu
  ? () => {
      const u = process.cpuUsage()
      return (u.user + u.system) / 1000
    }
  : () => performance.now()
const gc = (globalThis as { gc?: (options?: { type: "minor" | "major" }) => void }).gc
const minorGc = gc === undefined ? () => {} : () => gc({ type: "minor" })
// The bare loop and the floor always run: every ratio and every Effect target is taken from them.
const chosen =
  only === ""
    ? decoders
    : decoders.filter((d) => d.name === BARE || d.name === FLOOR || only.split(",").some((o) => d.name.includes(o)))

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

const FACADE_TARGET = 1.3
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")

console.log(
  `\nThroughput (Node ${process.versions.node}; ${rounds} interleaved rounds, medians of ${cpu ? "CPU" : "wall"} ` +
    `time; ratio to the bare loop; full validation on in ours; load average at start ${load()})`,
)
console.log(
  `Targets: facade ≤ ${FACADE_TARGET}x; the Effect API and the client (consumed with Stream.runForEach) ` +
    `≤ ${FACADE_TARGET}x + (floor − 1.0x).`,
)

const all = workloads(scale)
const misses: Array<string> = []
for (const w of all) {
  const times = new Map<string, Array<number>>(chosen.map((d) => [d.name, []]))
  let expected: number | undefined
  for (let round = -1; round < rounds; round++) {
    // Rotate the order each round so no decoder always runs first (or right after a heavy one).
    const order = chosen.map((_, i) => chosen[(i + Math.max(round, 0)) % chosen.length] as Row)
    for (const d of order) {
      const body = queuedBody(w.pieces)
      // Each run starts with an empty young generation (a minor GC): the scavenges during a run are then caused by that
      // decoder's own garbage, not by what the decoder before it left. No full GC: it resets more than garbage (code
      // that sits unused through several full GCs is flushed and must warm up again), and a real program never forces
      // one; the rotating order spreads the full collections the heavy decoders cause.
      minorGc()
      const start = now()
      const n = await d.decode(body)
      const ms = now() - start
      expected ??= n
      if (n !== expected) throw new Error(`${d.name} on ${w.name}: ${n} chunks+choices, expected ${expected}`)
      if (round >= 0) times.get(d.name)?.push(ms)
    }
  }
  const medians = new Map([...times].map(([name, t]) => [name, median(t)]))
  const base = medians.get(BARE) as number
  const floor = (medians.get(FLOOR) as number) / base
  const effectTarget = FACADE_TARGET + (floor - 1)

  console.log(`\n${w.name}: ${w.description} (${(w.bytes / 1e6).toFixed(1)} MB, ${w.pieces.length} reads)\n`)
  console.log("| decoder | median | ratio | target |")
  console.log("| --- | ---: | ---: | --- |")
  for (const d of chosen) {
    const t = medians.get(d.name) as number
    const ratio = t / base
    const limit = d.target === "facade" ? FACADE_TARGET : d.target === "effect" ? effectTarget : undefined
    let verdict = ""
    if (limit !== undefined) {
      // Judged on the printed (rounded) figures, so that the table reads consistently.
      const r = Number(ratio.toFixed(2))
      const l = Number(limit.toFixed(2))
      verdict = r <= l ? `≤ ${l.toFixed(2)}x: met` : `≤ ${l.toFixed(2)}x: **MISSED** by ${(r - l).toFixed(2)}x`
      if (r > l) misses.push(`${w.name}: ${d.name} ${r.toFixed(2)}x > ${l.toFixed(2)}x`)
    }
    console.log(`| ${d.name} | ${t.toFixed(1)} ms | ${ratio.toFixed(2)}x | ${verdict} |`)
  }
}

console.log(`\nThroughput targets: ${misses.length === 0 ? "all met" : `${misses.length} missed`}`)
for (const m of misses) console.log(`- missed: ${m}`)
console.log(`(load average at the end ${load()})`)
