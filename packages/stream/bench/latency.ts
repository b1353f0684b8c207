/**
 * Delivery delay over a real socket: a local HTTP server writes one chunk every 5 ms; each decoder reports when each
 * chunk reaches it. Prints the median and p99 delay from the server's write to the chunk's delivery, and the targets.
 *
 *   node bench/latency.ts [--events 1200]
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createParser } from "eventsource-parser"
import { Stream as OpenAIStream } from "openai/streaming"
import { CompletionStream, decodeCompletionStream } from "../src/index.ts"
import { benchClient, request } from "./client.ts"

const i = process.argv.indexOf("--events")
const EVENTS = i === -1 ? 1200 : Number(process.argv[i + 1])
const INTERVAL_MS = 5
// Rounds interleave the decoders; each connection's first chunks (connection set-up, JIT) are dropped.
const ROUNDS = 4
const SKIP = 10
const perRound = Math.max(SKIP + 10, Math.ceil(EVENTS / ROUNDS))

type Chunk = { readonly choices: ReadonlyArray<{ readonly text: string }> }
type Run = (url: string, onChunk: (c: Chunk) => void) => Promise<void>

const sent: Array<number> = []
const chunk = (seq: number) =>
  `data: {"id":"cmpl-1","object":"text_completion","created":1733382157,"model":"meta-llama-3.1-8b-instruct","choices":[{"index":0,"text":"${seq}","token":${seq},"finish_reason":"null","logprobs":null}],"usage":null}\n\n`

const server = createServer((req, res) => {
  req.resume() // the client POSTs a request body; nothing in it matters here
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
  res.flushHeaders()
  let seq = 0
  const tick = () => {
    if (seq === perRound) {
      res.end("data: [DONE]\n\n")
      return
    }
    sent[seq] = performance.now()
    res.write(chunk(seq++))
    setTimeout(tick, INTERVAL_MS)
  }
  setTimeout(tick, INTERVAL_MS)
})
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const url = `${base}/v1/completions`

const body = async (at: string): Promise<ReadableStream<Uint8Array>> =>
  (await fetch(at, { method: "POST", body: "{}" })).body as ReadableStream<Uint8Array>

const client = await benchClient(globalThis.fetch, base)

const BARE = "bare loop (no validation)"
const runs: ReadonlyArray<readonly [string, Run, target?: boolean]> = [
  [
    BARE,
    async (at, onChunk) => {
      const decoder = new TextDecoder()
      let buf = ""
      for await (const bytes of await body(at)) {
        buf += decoder.decode(bytes, { stream: true })
        let cut = buf.indexOf("\n\n")
        while (cut !== -1) {
          const ev = buf.slice(0, cut)
          buf = buf.slice(cut + 2)
          const data = ev.slice(6)
          if (data === "[DONE]") return
          onChunk(JSON.parse(data))
          cut = buf.indexOf("\n\n")
        }
      }
    },
  ],
  [
    "ours: facade decodeCompletionStream (for await)",
    async (at, onChunk) => {
      for await (const c of decodeCompletionStream(await body(at))) onChunk(c)
    },
    true,
  ],
  [
    "ours: Effect API fromReadableStream + runForEach",
    async (at, onChunk) => {
      const b = await body(at)
      await Effect.runPromise(
        Stream.runForEach(CompletionStream.fromReadableStream(b), (c) => Effect.sync(() => onChunk(c))),
      )
    },
    true,
  ],
  [
    "ours: client completions.stream + runForEach (global fetch)",
    (_, onChunk) =>
      Effect.runPromise(Stream.runForEach(client.completions.stream(request), (c) => Effect.sync(() => onChunk(c)))),
    true,
  ],
  [
    "eventsource-parser + JSON.parse",
    async (at, onChunk) => {
      const decoder = new TextDecoder()
      let done = false
      const parser = createParser({
        onEvent(e) {
          if (e.data === "[DONE]") done = true
          else if (!done) onChunk(JSON.parse(e.data))
        },
      })
      for await (const bytes of await body(at)) {
        parser.feed(decoder.decode(bytes, { stream: true }))
        if (done) return
      }
    },
  ],
  [
    "openai SDK Stream",
    async (at, onChunk) => {
      const response = await fetch(at, { method: "POST", body: "{}" })
      for await (const c of OpenAIStream.fromSSEResponse<Chunk>(response, new AbortController())) onChunk(c)
    },
  ],
]

const quantile = (xs: ReadonlyArray<number>, q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
}

const loadAtStart = loadavg()
const delays = new Map<string, Array<number>>(runs.map(([name]) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of runs) {
    const mine: Array<number> = []
    await run(url, (c) => {
      const seq = Number(c.choices[0]?.text)
      mine.push(performance.now() - (sent[seq] as number))
    })
    if (mine.length !== perRound) throw new Error(`${name}: ${mine.length} chunks, expected ${perRound}`)
    delays.get(name)?.push(...mine.slice(SKIP))
  }
}

const MEDIAN_TARGET = 0.3
const P99_TARGET = 1.5
const RELATIVE = 1.3
const bare = delays.get(BARE) ?? []
const bareMedian = quantile(bare, 0.5)
const bareP99 = quantile(bare, 0.99)
console.log(
  `\nDelivery delay (Node ${process.versions.node}; ${ROUNDS} interleaved rounds of ${perRound} chunks, one every ` +
    `${INTERVAL_MS} ms over a loopback HTTP socket, the first ${SKIP} of each connection dropped; load average ` +
    `${loadAtStart.map((l) => l.toFixed(2)).join(" ")})`,
)
console.log(
  `Targets (ours): median ≤ ${MEDIAN_TARGET} ms and p99 ≤ ${P99_TARGET} ms, or each within ${RELATIVE}x of the bare ` +
    `loop's in this run (median ≤ ${(bareMedian * RELATIVE).toFixed(3)} ms, p99 ≤ ${(bareP99 * RELATIVE).toFixed(3)} ms).\n`,
)
console.log("| decoder | median delay | p99 delay | target |")
console.log("| --- | ---: | ---: | --- |")
const misses: Array<string> = []
/** How one statistic fares: met outright, met against the bare loop, or missed (by how much, against the looser). */
const judge = (what: string, value: number, absolute: number, bareValue: number): string | undefined => {
  if (value <= absolute) return undefined
  const relative = bareValue * RELATIVE
  if (value <= relative) return `${what} > ${absolute} ms, but ≤ ${RELATIVE}x the bare loop's`
  return `**${what} MISSED** by ${(value - Math.max(absolute, relative)).toFixed(3)} ms`
}
for (const [name, , target] of runs) {
  const d = delays.get(name) ?? []
  const median = quantile(d, 0.5)
  const p99 = quantile(d, 0.99)
  let verdict = ""
  if (target === true) {
    const notes = [judge("median", median, MEDIAN_TARGET, bareMedian), judge("p99", p99, P99_TARGET, bareP99)].filter(
      (x) => x !== undefined,
    )
    const missed = notes.filter((n) => n.includes("MISSED"))
    verdict = missed.length > 0 ? notes.join("; ") : notes.length > 0 ? `met (${notes.join("; ")})` : "met"
    if (missed.length > 0) misses.push(`${name}: ${missed.join(", ").replaceAll("**", "")}`)
  }
  console.log(`| ${name} | ${median.toFixed(3)} ms | ${p99.toFixed(3)} ms | ${verdict} |`)
}
console.log(`\nDelivery delay targets: ${misses.length === 0 ? "all met" : `${misses.length} missed`}`)
for (const m of misses) console.log(`- missed: ${m}`)
server.close()
