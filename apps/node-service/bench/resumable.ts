// `pnpm bench` (this package's `bench`): the load run of resumable streams. Two Node instances of this service
// (child processes, each with its embedded mock) share one redis-server of their own on a free port of 127.0.0.1;
// N streams start at once, spread over both; a fifth of the readers drop after a random number of events and resume
// on the other instance with Last-Event-ID. Then the same load with nothing to resume from: each instance keeps its
// streams in its own memory and no reader drops. Printed: events lost and repeated (0), CPU per token per
// instance in both runs, Redis commands per token (INFO's total_commands_processed), the time from a reconnect to
// the first resumed event (p50, p99), and memory per stream (peak resident memory less idle, over the most streams
// live at once).
//
//     node bench/resumable.ts [--streams 1000] [--tokens 32] [--seed 20]      (--quick: 100 streams)
//
// Linux only (CPU and memory from /proc). Every request goes to 127.0.0.1; the run is bounded by the stream count.
import { readFileSync } from "node:fs"
import { createConnection } from "node:net"
import { fileURLToPath } from "node:url"
import { type ServiceProcess, startService } from "@friendli-stream/sample-service/suite/processes"
import { redisSkip, startRedis } from "@friendli-stream/test-harness/redis"

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

/** `total_commands_processed` of a Redis (inline INFO over node:net). */
const redisCommands = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port })
    let reply = ""
    socket.once("error", reject)
    socket.once("connect", () => socket.write("INFO stats\r\n"))
    socket.on("data", (chunk: Buffer) => {
      reply += chunk.toString("utf8")
      const found = /total_commands_processed:(\d+)/.exec(reply)
      if (found !== null) {
        socket.destroy()
        resolve(Number(found[1]))
      }
    })
  })

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
  readonly perStreamBytes: number
  readonly maxLive: number
  readonly redisCommands: number | undefined
}

/** One run: two instances, `STREAMS` streams, `dropShare` of the readers dropping once and resuming on the other. */
const run = async (env: Record<string, string>, dropShare: number, redisPort?: number): Promise<RunResult> => {
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
    const commandsBefore = redisPort === undefined ? undefined : await redisCommands(redisPort)
    const random = prng(SEED)
    const tokens = [0, 0]
    let lost = 0
    let repeated = 0
    let untypedEnds = 0
    let failedStarts = 0
    const reconnects: Array<number> = []
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
      await readEvents(res, abort, (e) => seen.push(e), drops ? dropAfter : undefined)
      if (drops && !isEnd(seen.at(-1))) {
        const other = instances[1 - home]!
        const from = performance.now()
        const again = new AbortController()
        const resumed = await fetch(`${other.url}${location}`, {
          headers: { "last-event-id": seen.at(-1)!.id },
          signal: again.signal,
        })
        let first = true
        await readEvents(resumed, again, (e) => {
          if (first) reconnects.push(performance.now() - from)
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
      perStreamBytes,
      maxLive,
      redisCommands:
        commandsBefore === undefined || commandsAfter === undefined ? undefined : commandsAfter - commandsBefore,
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
  if (r.redisCommands !== undefined) {
    console.log(`  Redis: ${r.redisCommands} commands, ${(r.redisCommands / total).toFixed(3)} per token`)
  }
  if (r.reconnects.length > 0) {
    console.log(
      `  reconnect -> first resumed event (${r.reconnects.length} resumes): p50 ${percentile(r.reconnects, 50).toFixed(1)} ms, p99 ${percentile(r.reconnects, 99).toFixed(1)} ms, max ${Math.max(...r.reconnects).toFixed(1)} ms, over 5 s: ${r.reconnects.filter((t) => t > 5000).length}`,
    )
  }
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
  const common = { MOCK_FAULTS: "delay:300", RESUMABLE_RETENTION_MS: "60000" }
  const memory = await run(common, 0)
  print("memory store, no reader drops (each instance its own streams)", memory)
  const redis = await startRedis()
  try {
    const shared = await run({ ...common, REDIS_URL: redis.url }, 0.2, redis.port)
    print("one Redis, 20% of the readers drop and resume on the other instance", shared)
    const perToken = (r: RunResult) => (r.cpuMs[0]! + r.cpuMs[1]!) / (r.tokens[0]! + r.tokens[1]!)
    console.log(
      `CPU per token, one Redis with 20% resumed against memory with no drops: ${((perToken(shared) / perToken(memory) - 1) * 100).toFixed(0)}%`,
    )
    if (shared.lost + shared.repeated + shared.untypedEnds + memory.lost + memory.repeated + memory.untypedEnds > 0) {
      console.log("FAILED: events were lost or repeated, or a stream ended without a typed end")
      process.exitCode = 1
    }
  } finally {
    await redis.stop()
  }
}
