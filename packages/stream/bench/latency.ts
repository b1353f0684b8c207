/**
 * Latency over a real socket: a local HTTP server sends one chunk every 5 ms; each decoder reports when each chunk
 * reaches it. Prints the median and p99 delay from the server's write to the chunk's delivery.
 *
 *   node bench/latency.ts [--events 600]
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createParser } from "eventsource-parser"
import { Stream as OpenAIStream } from "openai/streaming"
import { CompletionStream, decodeCompletionStream } from "../src/index.ts"

const i = process.argv.indexOf("--events")
const EVENTS = i === -1 ? 600 : Number(process.argv[i + 1])
const INTERVAL_MS = 5

type Chunk = { readonly choices: ReadonlyArray<{ readonly text: string }> }
type Run = (body: ReadableStream<Uint8Array>, onChunk: (c: Chunk) => void) => Promise<void>

const sent: Array<number> = []
const chunk = (seq: number) =>
  `data: {"id":"cmpl-1","object":"text_completion","created":1733382157,"model":"meta-llama-3.1-8b-instruct","choices":[{"index":0,"text":"${seq}","token":${seq},"finish_reason":"null","logprobs":null}],"usage":null}\n\n`

const server = createServer((req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
  res.flushHeaders()
  const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n") ?? EVENTS)
  let seq = 0
  const tick = () => {
    if (seq === n) {
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
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/completions`

const runs: ReadonlyArray<readonly [string, Run]> = [
  [
    "bare loop (no validation)",
    async (body, onChunk) => {
      const decoder = new TextDecoder()
      let buf = ""
      for await (const bytes of body) {
        buf += decoder.decode(bytes, { stream: true })
        let at = buf.indexOf("\n\n")
        while (at !== -1) {
          const ev = buf.slice(0, at)
          buf = buf.slice(at + 2)
          const data = ev.slice(6)
          if (data === "[DONE]") return
          onChunk(JSON.parse(data))
          at = buf.indexOf("\n\n")
        }
      }
    },
  ],
  [
    "ours: Effect (fromReadableStream)",
    (body, onChunk) =>
      Effect.runPromise(
        Stream.runForEach(CompletionStream.fromReadableStream(body), (c) => Effect.sync(() => onChunk(c))),
      ),
  ],
  [
    "ours: plain facade (for await)",
    async (body, onChunk) => {
      for await (const c of decodeCompletionStream(body)) onChunk(c)
    },
  ],
  [
    "eventsource-parser + JSON.parse",
    async (body, onChunk) => {
      const decoder = new TextDecoder()
      let done = false
      const parser = createParser({
        onEvent(e) {
          if (e.data === "[DONE]") done = true
          else if (!done) onChunk(JSON.parse(e.data))
        },
      })
      for await (const bytes of body) {
        parser.feed(decoder.decode(bytes, { stream: true }))
        if (done) return
      }
    },
  ],
  [
    "openai SDK Stream",
    async (body, onChunk) => {
      for await (const c of OpenAIStream.fromSSEResponse<Chunk>(new Response(body), new AbortController())) onChunk(c)
    },
  ],
]

const quantile = (xs: ReadonlyArray<number>, q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
}

// Rounds interleave the decoders; each connection's first chunks (connection set-up, JIT) are dropped.
const ROUNDS = 4
const perRound = Math.ceil(EVENTS / ROUNDS)
const delays = new Map<string, Array<number>>(runs.map(([name]) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of runs) {
    const mine: Array<number> = []
    const response = await fetch(`${url}?n=${perRound}`)
    await run(response.body as ReadableStream<Uint8Array>, (c) => {
      const seq = Number(c.choices[0]?.text)
      mine.push(performance.now() - (sent[seq] as number))
    })
    if (mine.length !== perRound) throw new Error(`${name}: ${mine.length} chunks, expected ${perRound}`)
    delays.get(name)?.push(...mine.slice(10))
  }
}

console.log(
  `\nLatency (${ROUNDS} interleaved rounds of ${perRound} chunks, one every ${INTERVAL_MS} ms, local HTTP socket; ` +
    `Node ${process.versions.node})\n`,
)
console.log("| decoder | median delay | p99 delay |")
console.log("| --- | ---: | ---: |")
for (const [name] of runs) {
  const d = delays.get(name) ?? []
  console.log(`| ${name} | ${quantile(d, 0.5).toFixed(3)} ms | ${quantile(d, 0.99).toFixed(3)} ms |`)
}
server.close()
