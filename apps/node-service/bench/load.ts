// `pnpm bench` (this package's `bench`, after bench/resumable.ts): the load run of the sample services (issue #23).
// Each service (Node, Deno, Bun: its main.ts on its runtime, a child process on a free port, streams in memory) streams
// from one mock Friendli endpoint in a Node process of its own (bench/mock.ts, which counts how every upstream request
// ended); the readers are this process. Per service: a warm-up, then single streams alone (time to first token
// unloaded), then the load: `--streams` streams, `--concurrency` at once, of which
//   - 60 % read to `[DONE]`;
//   - 30 % leave after 3 events: two in three of them leave for good (abort, then `DELETE` the stream: the service
//     must abort its upstream request, which the mock sees as a disconnect), one in three just drop (abort only: a
//     resumable stream goes on without its reader, so its upstream request must complete);
//   - 10 % read slowly (a pause between reads).
// Memory: `GET /debug/memory` (BENCH_STATS=1: a full GC where the runtime exposes one, then heap and RSS) after the
// warm-up and after the load, each once the streams ended and their retention time (RESUMABLE_RETENTION_MS) passed.
// Printed per service: errors (must be 0), 503s (a bound on open streams, counted apart), cancels vs upstream
// disconnects, upstream requests still open, heap after the load over heap after the warm-up (within 10 %), time to
// first token p50/p99 unloaded and under load; then the markdown table of them all.
//
//     node bench/load.ts [--streams 10000] [--concurrency 1000] [--warmup 1000] [--tokens 16] [--delay 20]
//                        [--runtimes node,deno,bun]                  (--quick: 1000 streams, 100 at once, 200 warm-up)
//
// Linux only (peak RSS from /proc). Every request goes to 127.0.0.1.
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type ServiceProcess, startService } from "@friendli-stream/sample-service/suite/processes"
import { readStream, type StreamResult } from "./reader.ts"
import { spawnListening } from "./spawnListening.ts"

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? fallback : Number(process.argv[i + 1])
}
const quick = process.argv.includes("--quick")
const STREAMS = arg("streams", quick ? 1000 : 10_000)
const CONCURRENCY = arg("concurrency", quick ? 100 : 1000)
const WARMUP = arg("warmup", quick ? 200 : 1000)
const TOKENS = arg("tokens", 16)
const DELAY = arg("delay", 20)
const ALONE = arg("alone", 30)
const RETENTION_MS = 1000
const runtimesArg = process.argv.indexOf("--runtimes")
const RUNTIMES = (runtimesArg < 0 ? "node,deno,bun" : process.argv[runtimesArg + 1]!).split(",")

const root = fileURLToPath(new URL("../../../", import.meta.url))
// the runtimes' own binaries, not node_modules/.bin's shims (a Node process in between, which SIGKILL would orphan them from)
const services: Record<string, { readonly command: string; readonly args: Array<string>; readonly cwd: string }> = {
  node: { command: process.execPath, args: ["--expose-gc", "main.ts"], cwd: `${root}apps/node-service` },
  deno: {
    command: `${root}node_modules/deno/deno`,
    args: ["run", "--unstable-no-legacy-abort", "--allow-net", "--allow-env", "--v8-flags=--expose-gc", "main.ts"],
    cwd: `${root}apps/deno-app`,
  },
  bun: { command: `${root}node_modules/bun/bin/bun.exe`, args: ["main.ts"], cwd: `${root}apps/bun-app` },
}

const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
const rss = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024
  } catch {
    return 0
  }
}
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
const MiB = (bytes: number) => (bytes / 2 ** 20).toFixed(1)

/** The mock in a process of its own (bench/mock.ts). */
const startMock = async () => {
  const mock = await spawnListening(["bench/mock.ts", "--faults", `delay:${DELAY}`], `${root}apps/node-service`)
  return {
    ...mock,
    outcomes: async (): Promise<Array<Upstream>> =>
      (await fetch(`${mock.url}/_bench/outcomes`)).json() as Promise<Array<Upstream>>,
    forget: async () => void (await fetch(`${mock.url}/_mock/requests`, { method: "DELETE" })).body?.cancel(),
  }
}
type Mock = Awaited<ReturnType<typeof startMock>>

/** How the mock saw one upstream request end (bench/mock.ts). */
interface Upstream {
  readonly prompt: string
  readonly outcome: string
  readonly endedAt: number | undefined
}

interface Memory {
  readonly heapUsed: number
  readonly rss: number
  readonly gc: boolean
}

interface Tally {
  readonly ttft: Array<number>
  /** Kind of failure -> count (a request that failed, a status other than 200 or 503, a stream without `[DONE]`). */
  readonly errors: Map<string, number>
  rejected503: number
  /** Readers that left for good: aborted, then `DELETE`d the stream (by the `DELETE`'s status). */
  readonly cancels: Map<number, number>
  /** The prompts of the streams cancelled while live (`DELETE` answered 2xx), with when the answer came (epoch ms). */
  readonly cancelledLive: Map<string, number>
  /** The prompts of the streams whose readers dropped only (abort, no `DELETE`): those streams go on. */
  readonly dropped: Set<string>
  slow: number
  completed: number
}

const newTally = (): Tally => ({
  ttft: [],
  errors: new Map(),
  rejected503: 0,
  cancels: new Map(),
  cancelledLive: new Map(),
  dropped: new Set(),
  slow: 0,
  completed: 0,
})
const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)
/** An error's message with its cause's code (`fetch failed` alone does not say whether it was a connect timeout). */
const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined
  return cause === undefined ? error.message : `${error.message} (${String(cause.code ?? cause.message)})`
}

/** What reader `n` of a run does: 60 % read to the end, 30 % leave after 3 events (2/3 for good), 10 % read slowly. */
const kindOf = (n: number): "full" | "cancel" | "drop" | "slow" => {
  const k = n % 10
  return k < 6 ? "full" : k < 8 ? "cancel" : k < 9 ? "drop" : "slow"
}

const oneStream = async (url: string, n: number, tally: Tally, phase: string): Promise<void> => {
  const kind = kindOf(n)
  const prompt = `Tell me story ${phase} ${n}`
  let result: StreamResult
  try {
    result = await readStream(`${url}/v1/stream`, {
      // a stream to cancel is long (10 times the tokens): a cancel that did not reach the upstream shows as a stream
      // that ran to its end, seconds after the cancel was answered
      body: JSON.stringify({ prompt, max_tokens: kind === "cancel" ? 10 * TOKENS : TOKENS }),
      leaveAfter: kind === "cancel" || kind === "drop" ? 3 : undefined,
      pauseMs: kind === "slow" ? 50 : undefined,
    })
  } catch (error) {
    count(tally.errors, `request failed: ${describe(error)}`)
    return
  }
  if (result.status === 503) {
    tally.rejected503++
    return
  }
  if (result.status !== 200) {
    count(tally.errors, `status ${result.status}: ${result.text.slice(0, 200)}`)
    return
  }
  if (result.ttft !== undefined) tally.ttft.push(result.ttft)
  if (kind === "cancel" || kind === "drop") {
    if (result.events < 3 || result.end !== undefined) count(tally.errors, `a leaving reader's stream ended early`)
    if (kind === "drop") {
      tally.dropped.add(prompt)
      return
    }
    try {
      const res = await fetch(`${url}${result.location}`, { method: "DELETE" })
      await res.body?.cancel()
      count(tally.cancels, res.status)
      if (res.ok) tally.cancelledLive.set(prompt, Date.now())
    } catch (error) {
      count(tally.errors, `DELETE failed: ${describe(error)}`)
    }
    return
  }
  if (result.end !== "[DONE]") count(tally.errors, `a stream ended with ${result.end ?? "no end"}`)
  else if (kind === "slow") tally.slow++
  else tally.completed++
}

/** `total` streams, `concurrency` at once (a pool of readers taking the next number). */
const load = async (url: string, total: number, concurrency: number, tally: Tally, phase: string): Promise<void> => {
  let next = 0
  const worker = async () => {
    while (next < total) await oneStream(url, next++, tally, phase)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker))
}

/** Waits until the mock has no request in flight (every stream ended upstream), then the retention time. */
const settle = async (mock: Mock): Promise<Array<Upstream>> => {
  const deadline = Date.now() + 60_000
  let outcomes = await mock.outcomes()
  while (outcomes.some((u) => u.outcome === "pending") && Date.now() < deadline) {
    await sleep(200)
    outcomes = await mock.outcomes()
  }
  await sleep(RETENTION_MS * 2)
  return outcomes
}

interface Report {
  readonly runtime: string
  readonly version: string
  readonly tally: Tally
  readonly alone: Array<number>
  readonly warm: Memory
  readonly after: Memory
  readonly peakRss: number
  readonly upstream: UpstreamCheck
  readonly seconds: number
}

/** The upstream requests of a load, as the mock saw them end, against what the readers did. */
interface UpstreamCheck {
  /** Outcome -> count, over every upstream request of the load (and of the single streams before it). */
  readonly outcomes: Record<string, number>
  /** Cancels of live streams whose upstream request the mock saw disconnect. */
  readonly cancelSeen: number
  /** Cancels of live streams whose upstream request had already completed when the `DELETE` was answered. */
  readonly cancelAfterEnd: number
  /**
   * Cancels of live streams whose upstream request completed after the `DELETE` was answered: the producer sees a
   * cancel at its next upstream event (or lease renewal), so a stream near its end can still complete.
   */
  readonly cancelMissed: number
  /** The longest such a request went on after the answer, ms. */
  readonly cancelMissedLagMs: number
  /** Dropped readers (no `DELETE`) whose stream's upstream request did not complete (it must go on). */
  readonly dropStopped: number
  /** Requests whose reader stayed to the end but the upstream request did not complete. */
  readonly otherNotCompleted: number
}

const checkUpstream = (upstream: ReadonlyArray<Upstream>, tally: Tally): UpstreamCheck => {
  const outcomes: Record<string, number> = {}
  let cancelSeen = 0
  let cancelAfterEnd = 0
  let cancelMissed = 0
  let cancelMissedLagMs = 0
  let dropStopped = 0
  let otherNotCompleted = 0
  for (const u of upstream) {
    outcomes[u.outcome] = (outcomes[u.outcome] ?? 0) + 1
    const answeredAt = tally.cancelledLive.get(u.prompt)
    if (answeredAt !== undefined) {
      if (u.outcome === "disconnected") cancelSeen++
      else if (u.outcome === "completed" && u.endedAt !== undefined && u.endedAt <= answeredAt) cancelAfterEnd++
      else {
        cancelMissed++
        cancelMissedLagMs = Math.max(cancelMissedLagMs, (u.endedAt ?? Number.POSITIVE_INFINITY) - answeredAt)
      }
    } else if (tally.dropped.has(u.prompt)) {
      if (u.outcome !== "completed") dropStopped++
    } else if (u.outcome !== "completed") {
      // the rest read to the end, or cancelled a stream that had ended already (409, or 404 after its retention)
      otherNotCompleted++
    }
  }
  return { outcomes, cancelSeen, cancelAfterEnd, cancelMissed, cancelMissedLagMs, dropStopped, otherNotCompleted }
}

const runOne = async (name: string, mock: Mock): Promise<Report> => {
  const service = services[name]!
  const child: ServiceProcess = await startService(service, {
    FRIENDLI_TOKEN: "bench-token",
    FRIENDLI_BASE_URL: `${mock.url}/serverless`,
    BENCH_STATS: "1",
    RESUMABLE_RETENTION_MS: String(RETENTION_MS),
    // a bound on open streams, where the service has one: high enough not to bite (503s are counted apart)
    MAX_STREAMS: String(10 * CONCURRENCY),
  })
  running = child
  try {
    const memory = async (): Promise<Memory> => (await fetch(`${child.url}/debug/memory`)).json() as Promise<Memory>
    const version = await versionOf(service.command)
    const step = (what: string) => console.log(`  ${version}: ${what}`)
    step(`warm-up, ${WARMUP} streams`)
    const warmTally = newTally()
    await load(child.url, WARMUP, CONCURRENCY, warmTally, "warm-up")
    await settle(mock)
    await mock.forget()
    const warm = await memory()
    step(`${ALONE} single streams, alone`)
    const aloneTally = newTally()
    for (let i = 0; i < ALONE; i++) await oneStream(child.url, 0, aloneTally, `alone-${i}`)
    const tally = newTally()
    let peakRss = 0
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rss(child.child.pid!))
    }, 250)
    step(`the load, ${STREAMS} streams`)
    const started = performance.now()
    await load(child.url, STREAMS, CONCURRENCY, tally, "load")
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    const upstream = checkUpstream(await settle(mock), tally)
    await mock.forget()
    const after = await memory()
    for (const [kind, n] of [...warmTally.errors, ...aloneTally.errors]) {
      tally.errors.set(`(before the load) ${kind}`, (tally.errors.get(`(before the load) ${kind}`) ?? 0) + n)
    }
    if (child.child.exitCode !== null) count(tally.errors, `the service ended:\n${child.output()}`)
    return { runtime: name, version, tally, alone: aloneTally.ttft, warm, after, peakRss, upstream, seconds }
  } finally {
    await child.kill()
  }
}

const versionOf = (command: string): Promise<string> =>
  command === process.execPath
    ? Promise.resolve(`Node ${process.version}`)
    : new Promise((done) => {
        const child = spawn(command, ["--version"], { stdio: ["ignore", "pipe", "ignore"] })
        let out = ""
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString("utf8")
        })
        child.once("close", () => {
          const line = out.split("\n")[0]!.trim()
          done(command.endsWith("bun.exe") ? `Bun ${line}` : line.replace(/ \(.*/, ""))
        })
      })

const print = (r: Report) => {
  const { tally } = r
  const cancelled = [...tally.cancels].reduce((a, [, n]) => a + n, 0)
  const up = r.upstream
  const errors = [...tally.errors].reduce((a, [, n]) => a + n, 0)
  const heapRatio = r.after.heapUsed / r.warm.heapUsed
  const rssRatio = r.after.rss / r.warm.rss
  console.log(`${r.version} (${r.seconds.toFixed(1)} s for the load):`)
  console.log(
    `  errors ${errors}${errors > 0 ? ` ${JSON.stringify([...tally.errors])}` : ""}; 503 (refused: too many open streams) ${tally.rejected503}`,
  )
  console.log(
    `  readers: ${tally.completed} read to [DONE], ${tally.slow} slowly to [DONE], ${cancelled} left for good (DELETE answered ${JSON.stringify(Object.fromEntries(tally.cancels))}: 409 and 404 when the stream had ended), ${tally.dropped.size} dropped (no DELETE)`,
  )
  console.log(
    `  upstream requests (the mock): ${JSON.stringify(up.outcomes)}; of the ${tally.cancelledLive.size} live streams cancelled: ${up.cancelSeen} disconnected, ${up.cancelAfterEnd} had completed before the cancel's answer, ${up.cancelMissed} completed after it${up.cancelMissed > 0 ? ` (up to ${up.cancelMissedLagMs} ms after the answer: the producer sees a cancel at its next upstream event or lease renewal, not at once)` : ""}; dropped readers' streams not completed ${up.dropStopped}; other streams not completed ${up.otherNotCompleted}`,
  )
  console.log(
    `  after a GC${r.warm.gc ? "" : " (none exposed)"}: heap ${MiB(r.warm.heapUsed)} -> ${MiB(r.after.heapUsed)} MiB (x${heapRatio.toFixed(3)}), RSS ${MiB(r.warm.rss)} -> ${MiB(r.after.rss)} MiB (x${rssRatio.toFixed(3)}); peak RSS under load ${MiB(r.peakRss)} MiB`,
  )
  console.log(
    `  time to first token: alone p50 ${percentile(r.alone, 50).toFixed(1)} ms, p99 ${percentile(r.alone, 99).toFixed(1)} ms; under load p50 ${percentile(tally.ttft, 50).toFixed(1)} ms, p99 ${percentile(tally.ttft, 99).toFixed(1)} ms`,
  )
}

/** Whether a service passed: no error, every cancel seen upstream, no upstream request left open, heap within 10 %. */
const passed = (r: Report): boolean => {
  const errors = [...r.tally.errors].reduce((a, [, n]) => a + n, 0)
  const up = r.upstream
  return errors === 0 && up.dropStopped + up.otherNotCompleted === 0 && r.after.heapUsed <= r.warm.heapUsed * 1.1
}

const table = (reports: ReadonlyArray<Report>): string => {
  const rows = reports.map((r) => {
    const errors = [...r.tally.errors].reduce((a, [, n]) => a + n, 0)
    const up = r.upstream
    return `| ${r.version} | ${errors} | ${r.tally.rejected503} | ${up.cancelSeen} + ${up.cancelAfterEnd} + ${up.cancelMissed} / ${r.tally.cancelledLive.size} | ${up.dropStopped + up.otherNotCompleted} | ${MiB(r.warm.heapUsed)} → ${MiB(r.after.heapUsed)} (×${(r.after.heapUsed / r.warm.heapUsed).toFixed(2)}) | ${MiB(r.warm.rss)} → ${MiB(r.after.rss)} (peak ${MiB(r.peakRss)}) | ${percentile(r.alone, 50).toFixed(0)} / ${percentile(r.alone, 99).toFixed(0)} | ${percentile(r.tally.ttft, 50).toFixed(0)} / ${percentile(r.tally.ttft, 99).toFixed(0)} | ${r.seconds.toFixed(0)} s |`
  })
  return [
    "| service | errors | 503 | cancels upstream: disconnected + ended before + completed after the answer / cancels | other upstream not completed | heap after GC, MiB: warm-up → load | RSS, MiB: warm-up → load | TTFT alone p50 / p99, ms | TTFT under load p50 / p99, ms | load time |",
    "| --- | --: | --: | --: | --: | --- | --- | --: | --: | --: |",
    ...rows,
  ].join("\n")
}

if (quick) console.log("--quick: a small load, a smoke test; the numbers mean little")
console.log(
  `services under load: ${STREAMS} streams of ${TOKENS} tokens (a token every ${DELAY} ms), ${CONCURRENCY} at once, after a warm-up of ${WARMUP}; 60 % read to the end, 20 % cancel after 3 events, 10 % drop after 3, 10 % read slowly`,
)
const mock = await startMock()
let running: ServiceProcess | undefined
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void Promise.all([running?.kill(), mock.stop()]).then(() => process.exit(130)))
}
const reports: Array<Report> = []
try {
  for (const name of RUNTIMES) {
    const report = await runOne(name, mock)
    print(report)
    reports.push(report)
  }
} finally {
  await mock.stop()
}
console.log(`\n${table(reports)}\n`)
const failed = reports.filter((r) => !passed(r))
if (failed.length > 0) {
  console.log(
    `FAILED: ${failed.map((r) => r.runtime).join(", ")} (errors, an upstream request not ended as its reader left it, or heap up by more than 10 %)`,
  )
  process.exitCode = 1
}
