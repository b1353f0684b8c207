// `pnpm bench` (this package's `bench`): the load run of resumable streams. Two Node instances of this service
// (child processes) stream from one mock Friendli endpoint in a process of its own (so that it neither times out
// nor takes the instances' CPU); the readers are this process. First the baseline, with nothing to resume from: each
// instance keeps its streams in its own memory and no reader drops. Then the same load on one redis-server of its
// own on a free port of 127.0.0.1, a fifth of the readers dropping after a random number of events and resuming on
// the other instance with Last-Event-ID. Printed: events lost and repeated (0), CPU per token per instance in both
// runs and their ratio, Redis commands per token (those the services sent, from INFO commandstats: EVALSHA and
// XREAD; and all Redis processed, with the commands the Lua scripts run), the time from a reconnect to the first
// resumed event on the reader's side (p50, p99; split into the response's headers and its first event, with this
// process's own event-loop delay beside it), and memory per stream (peak resident memory less idle, over the most
// streams live at once).
//
//     node bench/resumable.ts [--streams 1000] [--tokens 64] [--seed 20] [--redis-only]      (--quick: 100 streams)
//
// Linux only (CPU and memory from /proc). Every request goes to 127.0.0.1; the run is bounded by the stream count.
import { readFileSync } from "node:fs"
import { createConnection } from "node:net"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { type ServiceProcess, startService } from "@friendli-stream/sample-service/suite/processes"
import { redisSkip, startRedis } from "@friendli-stream/test-harness/redis"
import { spawnListening } from "./spawnListening.ts"

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? fallback : Number(process.argv[i + 1])
}
const quick = process.argv.includes("--quick")
const STREAMS = arg("streams", quick ? 100 : 1000)
const TOKENS = arg("tokens", 64)
const SEED = arg("seed", 20)
const here = fileURLToPath(new URL("..", import.meta.url))
const service = { command: process.execPath, args: ["main.ts"], cwd: here }

const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** utime + stime of a process, in milliseconds (clock ticks of 10 ms on Linux). */
const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}
/** Resident memory of a process, in bytes. */
const rss = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024
  } catch {
    return 0 // the process ended
  }
}

/** Calls per command of a Redis (`INFO commandstats`, inline over node:net), and `total` of them. */
const redisCommands = (port: number): Promise<Map<string, number>> =>
  new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port })
    let reply = ""
    socket.once("error", reject)
    socket.once("connect", () => socket.write("INFO commandstats\r\n"))
    socket.on("data", (chunk: Buffer) => {
      reply += chunk.toString("utf8")
      const header = /^\$(\d+)\r\n/.exec(reply)
      if (header === null || Buffer.byteLength(reply) < header[0].length + Number(header[1])) return
      socket.destroy()
      const calls = new Map<string, number>()
      for (const [, name, n] of reply.matchAll(/cmdstat_([a-z|_-]+):calls=(\d+)/g)) calls.set(name!, Number(n))
      resolve(calls)
    })
  })

/** The commands a client sends (the rest in `INFO commandstats` are those the Lua scripts run, or this bench's INFO). */
const SENT = new Set(["evalsha", "eval", "xread", "script|load", "script", "hello", "client|setinfo", "ping", "select"])

const difference = (after: Map<string, number>, before: Map<string, number>): Map<string, number> => {
  const out = new Map<string, number>()
  for (const [name, n] of after)
    if (name !== "info" && n - (before.get(name) ?? 0) > 0) out.set(name, n - (before.get(name) ?? 0))
  return out
}

/** The mock Friendli endpoint in a process of its own (`friendli-mock`, the testing package's Node server). */
const startMock = (faults: string) =>
  spawnListening([
    fileURLToPath(new URL("../../../packages/testing/dist/bin/node.js", import.meta.url)),
    ...["--port", "0", "--host", "127.0.0.1", "--faults", faults],
  ])

interface Event {
  readonly id: string
  readonly data: string
  readonly event: string | undefined
}

/** Reads SSE events from a response body until it ends, or until `stopAfter` events (then drops the connection). */
const readEvents = async (
  res: Response,
  abort: AbortController,
  onEvent: (e: Event) => void,
  stopAfter = Number.POSITIVE_INFINITY,
): Promise<number> => {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  let count = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return count
    buffer += decoder.decode(value, { stream: true })
    let end = buffer.indexOf("\n\n")
    while (end >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      let id = ""
      let event: string | undefined
      const data: Array<string> = []
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) id = line.slice(4)
        else if (line.startsWith("event: ")) event = line.slice(7)
        else if (line.startsWith("data: ")) data.push(line.slice(6))
      }
      onEvent({ id, event, data: data.join("\n") })
      if (++count >= stopAfter) {
        abort.abort()
        await reader.cancel().catch(() => {})
        return count
      }
      end = buffer.indexOf("\n\n")
    }
  }
}

const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

interface RunResult {
  readonly tokens: Array<number>
  readonly cpuMs: Array<number>
  readonly lost: number
  readonly repeated: number
  readonly untypedEnds: number
  /** Streams whose start was answered with an error (no stream was made), or whose request failed. */
  readonly failedStarts: number
  readonly reconnects: Array<number>
  /** Reconnect to the resumed response's headers. */
  readonly headers: Array<number>
  /** Every stream's time from its start to its fifth event (or its end), ms: how fast the streams get going. */
  readonly toFifth: Array<number>
  /** The slowest resumes: ms, the seq resumed after, the first seq resumed, ms since the stream's start at the drop. */
  readonly slowest: Array<readonly [number, number, number, number]>
  readonly perStreamBytes: number
  readonly maxLive: number
  /** Calls per command during the load (INFO commandstats). */
  readonly redisCommands: Map<string, number> | undefined
  /** This process's event-loop delay during the load: p99 and max, ms. */
  readonly loopDelay: readonly [number, number]
  readonly mockCpuMs: number
}

/** One run: two instances, `STREAMS` streams, `dropShare` of the readers dropping once and resuming on the other. */
const run = async (
  env: Record<string, string>,
  dropShare: number,
  mock: { readonly pid: number },
  redisPort?: number,
): Promise<RunResult> => {
  const instances: Array<ServiceProcess> = []
  try {
    instances.push(...(await Promise.all([startService(service, env), startService(service, env)])))
    const pids = instances.map((s) => s.child.pid!)
    // warm up: one stream each
    for (const s of instances) {
      const res = await fetch(`${s.url}/v1/stream`, {
        method: "POST",
        body: JSON.stringify({ prompt: "Hi", max_tokens: 4 }),
      })
      await res.text()
    }
    const idle = pids.map(rss)
    const cpuBefore = pids.map(cpuMs)
    const mockCpuBefore = cpuMs(mock.pid)
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    const commandsBefore = redisPort === undefined ? undefined : await redisCommands(redisPort)
    const random = prng(SEED)
    const tokens = [0, 0]
    let lost = 0
    let repeated = 0
    let untypedEnds = 0
    let failedStarts = 0
    const reconnects: Array<number> = []
    const headers: Array<number> = []
    const slowest: Array<readonly [number, number, number, number]> = []
    const toFifth: Array<number> = []
    const statuses = new Map<string, number>()
    let peak = [0, 0]
    let live = 0
    let maxLive = 0
    const sample = () => {
      peak = pids.map((pid, i) => Math.max(peak[i]!, rss(pid)))
    }
    const oneStream = async (n: number) => {
      const home = n % 2
      const drops = random() < dropShare
      const dropAfter = 1 + Math.floor(random() * (TOKENS - 2))
      const seen: Array<Event> = []
      const startedAt = performance.now()
      const abort = new AbortController()
      const res = await fetch(`${instances[home]!.url}/v1/stream`, {
        method: "POST",
        body: JSON.stringify({ prompt: `Tell me story number ${n}`, max_tokens: TOKENS }),
        signal: abort.signal,
      })
      const location = res.headers.get("location")!
      if (res.status !== 200) {
        const key = `${res.status} ${(await res.text()).slice(0, 300)}`
        statuses.set(key, (statuses.get(key) ?? 0) + 1)
        failedStarts++
        return
      }
      live++
      maxLive = Math.max(maxLive, live)
      await readEvents(
        res,
        abort,
        (e) => {
          seen.push(e)
          if (seen.length === 5 || (seen.length < 5 && isEnd(e))) toFifth.push(performance.now() - startedAt)
        },
        drops ? dropAfter : undefined,
      )
      if (drops && !isEnd(seen.at(-1))) {
        const other = instances[1 - home]!
        const from = performance.now()
        const again = new AbortController()
        const resumed = await fetch(`${other.url}${location}`, {
          headers: { "last-event-id": seen.at(-1)!.id },
          signal: again.signal,
        })
        headers.push(performance.now() - from)
        let first = true
        const seqOf = (e: Event | undefined) => Number(e?.id.slice(e.id.lastIndexOf(".") + 1))
        const after = seqOf(seen.at(-1))
        await readEvents(resumed, again, (e) => {
          if (first) {
            reconnects.push(performance.now() - from)
            slowest.push([performance.now() - from, after, seqOf(e), from - startedAt])
          }
          first = false
          seen.push(e)
        })
      }
      // every event once, in order, one typed end
      const seqs = seen.map((e) => Number(e.id.slice(e.id.lastIndexOf(".") + 1)))
      const distinct = new Set(seqs)
      repeated += seqs.length - distinct.size
      const last = Math.max(0, ...seqs)
      lost += last - distinct.size
      if (!isEnd(seen.at(-1))) untypedEnds++
      tokens[home]! += seen.filter((e) => !isEnd(e)).length
      live--
    }
    const sampler = setInterval(sample, 50)
    await Promise.all(
      Array.from({ length: STREAMS }, (_, n) =>
        oneStream(n).catch((error: unknown) => {
          const key = `request failed: ${error instanceof Error ? error.message : String(error)}`
          statuses.set(key, (statuses.get(key) ?? 0) + 1)
          failedStarts++
        }),
      ),
    )
    clearInterval(sampler)
    loop.disable()
    const mockCpu = cpuMs(mock.pid) - mockCpuBefore
    if (statuses.size > 0) console.log("  starts that failed:", [...statuses])
    for (const s of instances)
      if (s.child.exitCode !== null || s.child.signalCode !== null) console.log(`  an instance ended:\n${s.output()}`)
    const cpu = pids.map((pid, i) => cpuMs(pid) - cpuBefore[i]!)
    const commandsAfter = redisPort === undefined ? undefined : await redisCommands(redisPort)
    const perStreamBytes = peak.reduce((a, b, i) => a + Math.max(0, b - idle[i]!), 0) / maxLive
    return {
      tokens,
      cpuMs: cpu,
      lost,
      repeated,
      untypedEnds,
      failedStarts,
      reconnects,
      headers,
      toFifth,
      slowest: slowest.sort((a, b) => b[0] - a[0]).slice(0, 5),
      perStreamBytes,
      maxLive,
      redisCommands:
        commandsBefore === undefined || commandsAfter === undefined
          ? undefined
          : difference(commandsAfter, commandsBefore),
      loopDelay: [loop.percentile(99) / 1e6, loop.max / 1e6],
      mockCpuMs: mockCpu,
    }
  } finally {
    await Promise.all(instances.map((s) => s.kill()))
  }
}

const isEnd = (e: Event | undefined): boolean => e !== undefined && (e.data === "[DONE]" || e.event === "error")

const print = (label: string, r: RunResult) => {
  const total = r.tokens[0]! + r.tokens[1]!
  console.log(`${label}:`)
  console.log(
    `  events lost ${r.lost}, repeated ${r.repeated}, streams without a typed end ${r.untypedEnds}; starts that failed (no stream) ${r.failedStarts}`,
  )
  r.tokens.forEach((t, i) => {
    console.log(
      `  instance ${"AB"[i]}: ${t} tokens, ${r.cpuMs[i]} ms CPU, ${((r.cpuMs[i]! * 1000) / t).toFixed(1)} µs CPU per token`,
    )
  })
  console.log(`  the mock (its own process): ${r.mockCpuMs} ms CPU`)
  if (r.redisCommands !== undefined) {
    let sent = 0
    let all = 0
    for (const [name, n] of r.redisCommands) {
      all += n
      if (SENT.has(name)) sent += n
    }
    const perToken = (n: number) => (n / total).toFixed(3)
    const list = (filter: (name: string) => boolean) =>
      [...r.redisCommands!]
        .filter(([name]) => filter(name))
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `${name} ${perToken(n)}`)
        .join(", ")
    console.log(
      `  Redis commands the services sent: ${sent}, ${perToken(sent)} per token (${list((n) => SENT.has(n))})`,
    )
    console.log(
      `  Redis commands processed in all (with those the Lua scripts run): ${all}, ${perToken(all)} per token (in scripts: ${list((n) => !SENT.has(n))})`,
    )
  }
  console.log(
    `  a stream's start -> its fifth event: p50 ${percentile(r.toFifth, 50).toFixed(0)} ms, p99 ${percentile(r.toFifth, 99).toFixed(0)} ms, max ${Math.max(...r.toFifth).toFixed(0)} ms`,
  )
  if (r.reconnects.length > 0) {
    const line = (xs: ReadonlyArray<number>) =>
      `p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms, over 5 s: ${xs.filter((t) => t > 5000).length}`
    console.log(`  reconnect -> first resumed event (${r.reconnects.length} resumes): ${line(r.reconnects)}`)
    console.log(`  reconnect -> the resumed response's headers: ${line(r.headers)}`)
    console.log(
      `  slowest resumes (ms; resumed after seq -> first seq; ms since the stream's start): ${r.slowest.map(([ms, after, first, since]) => `${ms.toFixed(0)} (${after} -> ${first}; ${since.toFixed(0)})`).join(", ")}`,
    )
  }
  console.log(
    `  the readers' (this process's) event-loop delay: p99 ${r.loopDelay[0].toFixed(1)} ms, max ${r.loopDelay[1].toFixed(1)} ms`,
  )
  console.log(
    `  memory per stream (peak resident less idle, over the ${r.maxLive} streams live at once at most): ${(r.perStreamBytes / 1024).toFixed(1)} KiB`,
  )
}

const skip = redisSkip()
if (skip !== undefined) {
  console.log(`resumable bench skipped: ${skip}`)
} else {
  if (quick) console.log("--quick: a small load, a smoke test; the numbers mean little")
  console.log(`resumable streams: ${STREAMS} concurrent streams of ${TOKENS} tokens, two Node instances (seed ${SEED})`)
  // 300 ms between tokens: a stream lasts seconds, so that the streams are live at once
  const mock = await startMock("delay:300")
  const common = {
    FRIENDLI_TOKEN: "bench-token",
    FRIENDLI_BASE_URL: `${mock.url}/serverless`,
    RESUMABLE_RETENTION_MS: "60000",
  }
  const redis = await startRedis()
  try {
    // --redis-only: skip the baseline (to look at the Redis run alone); no ratio is printed then
    const redisOnly = process.argv.includes("--redis-only")
    const memory = redisOnly ? undefined : await run(common, 0, mock)
    if (memory !== undefined) print("baseline: memory store, no reader drops (each instance its own streams)", memory)
    const shared = await run({ ...common, REDIS_URL: redis.url }, 0.2, mock, redis.port)
    print("one Redis, 20% of the readers drop and resume on the other instance", shared)
    const perToken = (r: RunResult) => (r.cpuMs[0]! + r.cpuMs[1]!) / (r.tokens[0]! + r.tokens[1]!)
    if (memory !== undefined) {
      console.log(
        `CPU per token: baseline ${(perToken(memory) * 1000).toFixed(1)} µs, one Redis with 20% resumed ${(perToken(shared) * 1000).toFixed(1)} µs: ratio ${(perToken(shared) / perToken(memory)).toFixed(2)} (${((perToken(shared) / perToken(memory) - 1) * 100).toFixed(0)}%; target ≤ +25%)`,
      )
    }
    const bad = (r: RunResult | undefined) => (r === undefined ? 0 : r.lost + r.repeated + r.untypedEnds)
    if (bad(shared) + bad(memory) > 0) {
      console.log("FAILED: events were lost or repeated, or a stream ended without a typed end")
      process.exitCode = 1
    }
  } finally {
    await redis.stop()
    await mock.stop()
  }
}
