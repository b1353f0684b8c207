/**
 * Throughput: every decoder on every workload, in one process, interleaved rounds, medians. Prints a Markdown table.
 *
 *   node bench/throughput.ts [--scale 0.1] [--rounds 5] [--only name,name]
 */
import { decoders } from "./decoders.ts"
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
const chosen = only === "" ? decoders : decoders.filter((d) => only.split(",").some((o) => d.name.includes(o)))

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

const results = new Map<string, Map<string, number>>()
const all = workloads(scale)
for (const w of all) {
  const times = new Map<string, Array<number>>(chosen.map((d) => [d.name, []]))
  let expected: number | undefined
  for (let round = -1; round < rounds; round++) {
    // Rotate the order each round so no decoder always runs first (or right after a heavy one).
    const order = chosen.map((_, i) => chosen[(i + Math.max(round, 0)) % chosen.length]!)
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
      if (round >= 0) times.get(d.name)!.push(ms)
    }
  }
  const medians = new Map([...times].map(([name, t]) => [name, median(t)]))
  results.set(w.name, medians)
  process.stderr.write(`  ${w.name}: done\n`)
}

const bareName = decoders[0]!.name
const header = ["decoder", ...all.map((w) => w.name)]
console.log(
  `\nThroughput (${rounds} interleaved rounds, medians of ${cpu ? "CPU" : "wall"} time; ms and ratio to the bare loop; Node ${process.versions.node})\n`,
)
for (const w of all)
  console.log(`- ${w.name}: ${w.description} (${(w.bytes / 1e6).toFixed(1)} MB, ${w.pieces.length} reads)`)
console.log("")
console.log(`| ${header.join(" | ")} |`)
console.log(`| ${header.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`)
for (const d of chosen) {
  const cells = all.map((w) => {
    const m = results.get(w.name)!
    const t = m.get(d.name)!
    const base = m.get(bareName)
    return base === undefined ? `${t.toFixed(1)} ms` : `${t.toFixed(1)} ms (${(t / base).toFixed(2)}x)`
  })
  console.log(`| ${d.name} | ${cells.join(" | ")} |`)
}
