#!/usr/bin/env node
/**
 * `pnpm bench` (this package's `bench`): the end-to-end benchmark. Starts `server.ts` in its own process, then runs
 * every row in a fresh child process (so rows share no JIT or heap state), `--reps` times, in a rotating order, and
 * prints Markdown tables of CPU time per chunk and wall time per stream as ratios to the bare `fetch` loop of the
 * same run (each row's best repetition: load from other processes only adds time), with the targets beside them.
 *
 *   node src/main.ts [--streams 100] [--chunks 200] [--reps 3] [--rounds 2] [--bulk-rounds 10]
 *                    [--memory-streams 1000] [--sections paced,bulk,memory,deno,bun] [--quick]
 *
 * It also writes the ratios as JSON, `reports/bench.json` of this package, and draws them as an SVG bar chart
 * (`src/chart.ts`) beside it; a full run (every section, not `--quick`) writes both to the root's `docs/bench.json`
 * and `docs/bench.svg`, the chart the root README shows.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runtimeBinary } from "@friendli-stream/test-harness/runtimes"
import { type ChartSection, drawChart } from "./chart.ts"
import type { HeapResult, TimedResult } from "./measure.ts"
import {
  bulkTargets,
  heapTargets,
  NODE_ROWS,
  pacedTargets,
  type Ratios,
  RUNTIME_ROWS,
  runtimeTargets,
  type Target,
} from "./targets.ts"

const here = dirname(fileURLToPath(import.meta.url))
// pnpm 12 passes the `--` of `pnpm bench -- --quick` on to the script: an argument list that starts with it is
// read as if it did not.
const argv = process.argv.slice(2)
const { values } = parseArgs({
  args: argv[0] === "--" ? argv.slice(1) : argv,
  options: {
    streams: { type: "string", default: "100" },
    chunks: { type: "string", default: "200" },
    reps: { type: "string", default: "3" },
    rounds: { type: "string", default: "2" },
    "bulk-rounds": { type: "string", default: "10" },
    "memory-streams": { type: "string", default: "1000" },
    sections: { type: "string", default: "paced,bulk,memory,deno,bun" },
    quick: { type: "boolean", default: false },
  },
})
const quick = values.quick
const streams = quick ? 10 : Number(values.streams)
const chunks = quick ? 20 : Number(values.chunks)
const reps = quick ? 1 : Number(values.reps)
const rounds = quick ? 1 : Number(values.rounds)
const bulkRounds = quick ? 1 : Number(values["bulk-rounds"])
const memoryStreams = quick ? 50 : Number(values["memory-streams"])
const sections = new Set(values.sections.split(","))

console.log(`Node ${process.version}, ${availableParallelism()} cores (${process.platform} ${process.arch})`)
console.log(
  `${streams} streams at once, ${chunks} chat chunks each; ${reps} repetitions of each row in its own process ` +
    `(${rounds} measured rounds paced, ${bulkRounds} bulk, after a warm-up round); the best repetition counts`,
)
if (quick) console.log("--quick: small workloads, a smoke test; the numbers mean nothing")

/** The server process, and its port once it listens. */
const server = spawn(process.execPath, [join(here, "server.ts")], { stdio: ["pipe", "pipe", "inherit"] })
const port = await new Promise<number>((resolve, reject) => {
  server.stdout.once("data", (data: Buffer) => resolve(JSON.parse(data.toString()).port))
  server.once("exit", (code) => reject(new Error(`the server exited (${code})`)))
})
const stopServer = () => server.stdin.end()
process.on("exit", () => server.kill())

type Runtime = "node" | "deno" | "bun"

const command = (runtime: Runtime): { cmd: string; args: Array<string> } => {
  if (runtime === "node") return { cmd: process.execPath, args: ["--expose-gc", join(here, "node-child.ts")] }
  const binary = runtimeBinary(runtime)
  if (!("path" in binary)) throw new Error(binary.missing)
  return runtime === "deno"
    ? {
        cmd: binary.path,
        args: [
          "run",
          "-A",
          "--v8-flags=--expose-gc",
          "--config",
          join(here, "../../../deno.json"),
          join(here, "runtime-child.ts"),
        ],
      }
    : { cmd: binary.path, args: [join(here, "runtime-child.ts")] }
}

/** Runs one row in a fresh process and returns what it printed (its last line, JSON). */
const child = <R>(runtime: Runtime, row: string, mode: string, extra: Array<string>): R => {
  const { cmd, args } = command(runtime)
  const r = spawnSync(cmd, [...args, "--row", row, "--port", String(port), "--mode", mode, ...extra], {
    cwd: join(here, ".."),
    encoding: "utf8",
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
  })
  const last = r.stdout.trim().split("\n").at(-1) ?? ""
  if (r.status !== 0 || !last.startsWith("{")) {
    throw new Error(`${runtime} row "${row}" (${mode}) failed (${r.status}):\n${r.stderr}${r.stdout}`)
  }
  return JSON.parse(last) as R
}

/** Every row `reps` times, the order rotated each time; each row's best (lowest CPU) repetition. */
const timedTable = (runtime: Runtime, rows: ReadonlyArray<string>, mode: string, measured: number) => {
  const best: Record<string, TimedResult> = {}
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[(i + rep) % rows.length] as string
      const result = child<TimedResult>(runtime, row, mode, [
        ...["--streams", String(streams), "--chunks", String(chunks)],
        ...["--rounds", String(measured), "--warmup", "1"],
      ])
      const expected = row.startsWith("AI SDK") ? chunks - 1 : chunks
      if (result.itemsPerStream !== expected) {
        throw new Error(`${row} (${mode}) handed on ${result.itemsPerStream} items per stream, not ${expected}`)
      }
      const seen = best[row]
      if (seen === undefined || result.cpuPerChunkUs < seen.cpuPerChunkUs) best[row] = result
    }
  }
  return best
}

const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length))
const verdict = (t: Target | undefined) => (t === undefined ? "" : `${t.met ? "PASS" : "MISS"} (${t.text})`)

const printTimed = (
  title: string,
  rows: ReadonlyArray<string>,
  best: Record<string, TimedResult>,
  targets: (cpu: Ratios) => Record<string, Target | undefined>,
) => {
  const floor = best[rows[0] as string] as TimedResult
  const cpu: Record<string, number> = {}
  for (const row of rows) cpu[row] = (best[row] as TimedResult).cpuPerChunkUs / floor.cpuPerChunkUs
  const t = targets(cpu)
  chartSections.push({ title, measure: "CPU per chunk", rows: rows.map((row) => ({ row, ratio: cpu[row] as number })) })
  const width = Math.max(...rows.map((r) => r.length))
  console.log(`\n### ${title}\n`)
  console.log(`| ${pad("row", width)} | CPU µs/chunk | CPU ratio | wall ms/stream | wall ratio | target (CPU) |`)
  console.log(`| ${"-".repeat(width)} | ---: | ---: | ---: | ---: | --- |`)
  for (const row of rows) {
    const r = best[row] as TimedResult
    console.log(
      `| ${pad(row, width)} | ${r.cpuPerChunkUs.toFixed(2)} | ${(cpu[row] as number).toFixed(2)} | ` +
        `${r.wallPerStreamMs.toFixed(1)} | ${(r.wallPerStreamMs / floor.wallPerStreamMs).toFixed(2)} | ${verdict(t[row])} |`,
    )
  }
}

const misses: Array<string> = []
const chartSections: Array<ChartSection> = []
const note = (title: string, targets: Record<string, Target | undefined>) => {
  for (const [row, t] of Object.entries(targets)) if (t !== undefined && !t.met) misses.push(`${title}: ${row}`)
}
const ratios = (rows: ReadonlyArray<string>, best: Record<string, TimedResult>): Ratios => {
  const floor = (best[rows[0] as string] as TimedResult).cpuPerChunkUs
  return Object.fromEntries(rows.map((row) => [row, (best[row] as TimedResult).cpuPerChunkUs / floor]))
}

try {
  if (sections.has("paced")) {
    const best = timedTable("node", NODE_ROWS, "paced", rounds)
    const title = "Node, paced (one event per write, a token every 5 ms)"
    printTimed(title, NODE_ROWS, best, pacedTargets)
    note(title, pacedTargets(ratios(NODE_ROWS, best)))
  }
  if (sections.has("bulk")) {
    const best = timedTable("node", NODE_ROWS, "bulk", bulkRounds)
    const title = "Node, bulk (the body in 16 KiB writes)"
    printTimed(title, NODE_ROWS, best, bulkTargets)
    note(title, bulkTargets(ratios(NODE_ROWS, best)))
  }
  for (const runtime of ["deno", "bun"] as const) {
    if (!sections.has(runtime)) continue
    const binary = runtimeBinary(runtime)
    if (!("path" in binary)) {
      console.log(`\n${runtime}: skipped (${binary.missing})`)
      continue
    }
    const version = spawnSync(binary.path, ["--version"], { encoding: "utf8" }).stdout.split("\n")[0]
    const best = timedTable(runtime, RUNTIME_ROWS, "paced", rounds)
    const title = `${runtime === "bun" ? `Bun ${version}` : version}, paced`
    printTimed(title, RUNTIME_ROWS, best, runtimeTargets)
    note(title, runtimeTargets(ratios(RUNTIME_ROWS, best)))
  }
  if (sections.has("memory")) {
    const heap: Record<string, number> = {}
    for (const row of NODE_ROWS) {
      heap[row] = child<HeapResult>("node", row, "hold", [
        ...["--streams", String(memoryStreams), "--chunks", String(chunks)],
      ]).heapPerStreamBytes
    }
    const floor = heap[NODE_ROWS[0]] as number
    const r = Object.fromEntries(NODE_ROWS.map((row) => [row, (heap[row] as number) / floor]))
    const t = heapTargets(r)
    const title = `Node, ${memoryStreams} streams open at once: heap per open stream (after GC)`
    chartSections.push({
      title: `Node, ${memoryStreams} open streams`,
      measure: "heap per open stream",
      rows: NODE_ROWS.map((row) => ({ row, ratio: r[row] as number })),
    })
    const width = Math.max(...NODE_ROWS.map((row) => row.length))
    console.log(`\n### ${title}\n`)
    console.log(`| ${pad("row", width)} | KiB/stream | ratio | target |`)
    console.log(`| ${"-".repeat(width)} | ---: | ---: | --- |`)
    for (const row of NODE_ROWS) {
      console.log(
        `| ${pad(row, width)} | ${((heap[row] as number) / 1024).toFixed(1)} | ${(r[row] as number).toFixed(2)} | ${verdict(t[row])} |`,
      )
    }
    note(title, t)
  }
  console.log(
    misses.length === 0 ? "\nevery target met" : `\n${misses.length} targets missed:\n- ${misses.join("\n- ")}`,
  )
  const caption =
    `Node ${process.version}, ${availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}` +
    `${quick ? " (--quick: the numbers mean nothing)" : ""}`
  const results = { caption, sections: chartSections }
  const full = !quick && ["paced", "bulk", "memory", "deno", "bun"].every((s) => sections.has(s))
  const out = full ? join(here, "../../../docs") : join(here, "../reports")
  mkdirSync(out, { recursive: true })
  writeFileSync(join(out, "bench.json"), `${JSON.stringify(results, null, 2)}\n`)
  writeFileSync(join(out, "bench.svg"), drawChart(results))
  console.log(`\nthe chart: ${join(out, "bench.svg")} (from ${join(out, "bench.json")})`)
} finally {
  stopServer()
}
