/**
 * What resumption costs, in one Node process (the service and its readers) against the mock Friendli endpoint in a
 * process of its own: N concurrent streams through the client's `toResponse()` (what the sample services do today)
 * and through the resumable handler on the memory store, a fifth of the resumable readers dropping after a few
 * events and resuming with Last-Event-ID. Prints CPU per token (service + readers) with and without resumption,
 * store writes per token, p50/p99 time from a reconnect to its first resumed event, and the memory an ended stream
 * holds during its retention time. A load run, not a timed test: on a loaded machine the numbers move a lot.
 *
 *   node --expose-gc bench/resume.ts [--streams 500] [--tokens 64] [--rounds 3]
 */
import { spawn } from "node:child_process"
import { get } from "node:http"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { FriendliClient, makePromiseClient } from "@friendli-stream/stream"
import { serveNode } from "@friendli-stream/testing/node"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryStore, ResumableHandler, ResumableStore } from "../src/index.ts"

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}
const STREAMS = arg("streams", 500)
const TOKENS = arg("tokens", 64)
const ROUNDS = arg("rounds", 3)
const DROP_SHARE = 0.2

const here = dirname(fileURLToPath(import.meta.url))
const mockBin = join(here, "../../testing/dist/bin/node.js")

/** The mock in a child process (its CPU is not counted); resolves with its URL. */
const startMock = () =>
  new Promise<{ url: string; stop: () => void }>((resolve, reject) => {
    const child = spawn(process.execPath, [mockBin, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] })
    child.on("error", reject)
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (text: string) => {
      const url = /listening on (\S+)/.exec(text)?.[1]
      if (url !== undefined) resolve({ url, stop: () => child.kill() })
    })
    child.on("exit", (code) => reject(new Error(`the mock exited with ${code} (is packages/testing built?)`)))
  })

const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** Counts the events in a body as it arrives; stops after `dropAfter` events when given. */
const readEvents = async (
  response: Response,
  dropAfter?: number,
  controller?: AbortController,
): Promise<{ count: number; lastId: string | undefined; firstAt: number | undefined }> => {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ""
  let count = 0
  let lastId: string | undefined
  let firstAt: number | undefined
  while (true) {
    const { done, value } = await reader.read()
    if (done) break
    firstAt ??= performance.now()
    text += decoder.decode(value, { stream: true })
    let end = text.indexOf("\n\n")
    while (end >= 0) {
      const block = text.slice(0, end)
      text = text.slice(end + 2)
      if (block.includes("data:")) {
        count++
        lastId = /^id: (.*)$/m.exec(block)?.[1] ?? lastId
      }
      if (dropAfter !== undefined && count >= dropAfter) {
        controller?.abort()
        await reader.cancel().catch(() => {})
        return { count, lastId, firstAt }
      }
      end = text.indexOf("\n\n")
    }
  }
  return { count, lastId, firstAt }
}

const body = (i: number) => JSON.stringify({ prompt: `Bench stream ${i}`, max_tokens: TOKENS })

const mock = await startMock()
const client = makePromiseClient(FriendliClient.fetchHttpClient(), { deployment: "container", baseURL: mock.url })
const readJson = async (request: Request) => (await request.json()) as { prompt: string; max_tokens: number }

// today's service: the stream handle's toResponse()
const plain = await serveNode(async (request: Request) => {
  const { prompt, max_tokens } = await readJson(request)
  return client.completions.stream({ model: "m", prompt, max_tokens }, { signal: request.signal }).toResponse()
})

// the resumable service, its memory store's writes counted
let appends = 0
const countingStore = Layer.effectContext(
  Effect.gen(function* () {
    const context = yield* Layer.build(MemoryStore.layer())
    const store = Context.get(context, ResumableStore)
    return Context.add(context, ResumableStore, {
      ...store,
      append: (lease, events) => {
        appends++
        return store.append(lease, events)
      },
    })
  }),
)
const resumable = ResumableHandler.toWebHandler({
  store: countingStore,
  start: async (request, { signal }) => {
    const { prompt, max_tokens } = await readJson(request)
    return client.completions.stream({ model: "m", prompt, max_tokens }, { signal })
  },
})
const resumableServer = await serveNode(resumable.fetch)

const runPlain = async (): Promise<number> => {
  const results = await Promise.all(
    Array.from({ length: STREAMS }, async (_, i) =>
      readEvents(await fetch(plain.url, { method: "POST", body: body(i) })),
    ),
  )
  return results.reduce((n, r) => n + r.count, 0)
}

const reconnects: Array<number> = []
const headersAt: Array<number> = []
const runResumable = async (): Promise<number> => {
  const base = `${resumableServer.url}/v1/stream`
  const results = await Promise.all(
    Array.from({ length: STREAMS }, async (_, i) => {
      const drops = i < STREAMS * DROP_SHARE
      const controller = new AbortController()
      const response = await fetch(base, { method: "POST", body: body(i), signal: controller.signal })
      const location = new URL(response.headers.get("location") ?? "", base).href
      if (!drops) return (await readEvents(response)).count
      const head = await readEvents(response, 1 + (i % Math.max(1, TOKENS - 2)), controller)
      const at = performance.now()
      const resumed = await fetch(location, { headers: { "last-event-id": head.lastId ?? "" } })
      headersAt.push(performance.now() - at)
      if (resumed.status === 204) return head.count
      const rest = await readEvents(resumed)
      if (rest.firstAt !== undefined) reconnects.push(rest.firstAt - at)
      return head.count + rest.count
    }),
  )
  return results.reduce((n, r) => n + r, 0)
}

/** How long a new connection to `url` waits for its answer (a 404), as a same-run baseline for the reconnects. */
const newConnection = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const t = performance.now()
    get(url, (res) => {
      res.resume()
      resolve(performance.now() - t)
    }).on("error", reject)
  })

const baseline: Array<number> = []
const measure = async (run: () => Promise<number>, probeUrl: string) => {
  const cpu0 = cpuMs()
  const t0 = performance.now()
  const probe = new Promise<void>((resolve) =>
    setTimeout(
      () =>
        void newConnection(probeUrl)
          .then(
            (ms) => baseline.push(ms),
            () => {},
          )
          .finally(resolve),
      50,
    ),
  )
  const events = await run()
  await probe
  return { cpu: cpuMs() - cpu0, wall: performance.now() - t0, events }
}

try {
  console.log(
    `resumable bench: ${STREAMS} concurrent streams of ${TOKENS} tokens, ${ROUNDS} rounds, Node ${process.version}`,
  )
  await runPlain() // warm-up
  await runResumable()
  const plainRuns = []
  const resumableRuns = []
  appends = 0
  reconnects.length = 0
  headersAt.length = 0
  for (let r = 0; r < ROUNDS; r++) {
    plainRuns.push(await measure(runPlain, `${plain.url}/none`))
    resumableRuns.push(await measure(runResumable, `${resumableServer.url}/none`))
  }
  const perEvent = (runs: Array<{ cpu: number; events: number }>) =>
    (runs.reduce((s, r) => s + r.cpu, 0) * 1000) / runs.reduce((s, r) => s + r.events, 0)
  const plainUs = perEvent(plainRuns)
  const resumableUs = perEvent(resumableRuns)
  const stored = resumableRuns.reduce((s, r) => s + r.events, 0) // events read (each stored once)
  console.log(
    `  wall per round: plain ${plainRuns.map((r) => r.wall.toFixed(0)).join(", ")} ms; resumable ${resumableRuns.map((r) => r.wall.toFixed(0)).join(", ")} ms`,
  )
  console.log(`  CPU per event without resumption (toResponse): ${plainUs.toFixed(1)} µs`)
  console.log(
    `  CPU per event with resumption (memory store, ${DROP_SHARE * 100}% of readers resuming): ${resumableUs.toFixed(1)} µs (${(((resumableUs - plainUs) / plainUs) * 100).toFixed(0)}% more; aim: at most 25% with Redis)`,
  )
  console.log(`  store writes (appends) per event: ${(appends / stored).toFixed(3)} (aim: at most 1)`)
  console.log(
    `  reconnect -> first resumed event: p50 ${percentile(reconnects, 50).toFixed(1)} ms, p99 ${percentile(reconnects, 99).toFixed(1)} ms (${reconnects.length} resumes; its headers: p50 ${percentile(headersAt, 50).toFixed(1)} ms; the next event may not be generated yet)`,
  )
  console.log(
    `  same-run baseline: any new connection 50 ms into a round waited p50 ${percentile(baseline, 50).toFixed(1)} ms for its answer (readers and service share this process's event loop)`,
  )
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc !== undefined) {
    gc()
    const before = process.memoryUsage().heapUsed
    await measure(runResumable, `${resumableServer.url}/none`)
    gc()
    const after = process.memoryUsage().heapUsed
    console.log(
      `  memory held per ended stream (retained, ${TOKENS} tokens): ${((after - before) / STREAMS / 1024).toFixed(1)} KiB`,
    )
  } else console.log("  (memory per stream: run with --expose-gc)")
} finally {
  await resumable.close()
  await resumableServer.close()
  await plain.close()
  await client.close()
  mock.stop()
}
