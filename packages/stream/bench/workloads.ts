/** Deterministic benchmark workloads: SSE bodies of Friendli completion chunks, cut into reads. */

const encoder = new TextEncoder()

/** A small seeded PRNG (mulberry32), so every run cuts the same bytes the same way. */
export const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const WORDS = [
  " the",
  " a",
  " stream",
  " token",
  " of",
  " and",
  " model",
  " Friendli",
  " fast",
  " é",
  " 世界",
  " 😀",
  "\\n",
]

/** One SSE event of a Friendli completion chunk (`"null"` finish reason, as Friendli sends it). */
const event = (i: number, rand: () => number, logprobs: boolean): string => {
  const text = WORDS[Math.floor(rand() * WORDS.length)] as string
  const lp = logprobs
    ? `{"text_offset":[${i * 4}],"token_logprobs":[${(-rand()).toFixed(6)}],"tokens":[${JSON.stringify(text)}],"top_logprobs":[{${WORDS.slice(
        0,
        5,
      )
        .map((w) => `${JSON.stringify(w)}:${(-rand() * 5).toFixed(6)}`)
        .join(",")}}]}`
    : "null"
  return `data: {"id":"cmpl-5b2f0c1e6a9d4e7f8a1b2c3d4e5f6a7b","object":"text_completion","created":1733382157,"model":"meta-llama-3.1-8b-instruct","choices":[{"index":0,"text":${JSON.stringify(text)},"token":${1000 + (i % 30000)},"finish_reason":"null","logprobs":${lp}}],"usage":null}\n\n`
}

const END =
  `data: {"id":"cmpl-5b2f0c1e6a9d4e7f8a1b2c3d4e5f6a7b","object":"text_completion","created":1733382157,"model":"meta-llama-3.1-8b-instruct","choices":[{"index":0,"text":"","finish_reason":"stop","logprobs":null}],"usage":null}\n\n` +
  `data: {"id":"cmpl-5b2f0c1e6a9d4e7f8a1b2c3d4e5f6a7b","object":"text_completion","created":1733382157,"model":"meta-llama-3.1-8b-instruct","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":50000,"total_tokens":50012}}\n\n` +
  "data: [DONE]\n\n"

/** The events of a body (the end events included), as separate strings. */
export const events = (n: number, logprobs: boolean, seed = 1): Array<string> => {
  const rand = prng(seed)
  const out: Array<string> = []
  for (let i = 0; i < n; i++) out.push(event(i, rand, logprobs))
  out.push(END)
  return out
}

/** A whole body's bytes. */
export const bodyBytes = (n: number, logprobs: boolean, seed = 1): Uint8Array =>
  encoder.encode(events(n, logprobs, seed).join(""))

/** Cuts bytes into reads of `min`–`max` bytes. */
export const cutRandom = (all: Uint8Array, min: number, max: number, seed = 2): Array<Uint8Array> => {
  const rand = prng(seed)
  const out: Array<Uint8Array> = []
  for (let i = 0; i < all.length; ) {
    const size = min + Math.floor(rand() * (max - min + 1))
    out.push(all.subarray(i, i + size))
    i += size
  }
  return out
}

/** A workload: the reads of one body, and how many chunks it holds. */
export interface Workload {
  readonly name: string
  readonly description: string
  readonly pieces: ReadonlyArray<Uint8Array>
  readonly chunks: number
  readonly bytes: number
}

const make = (name: string, description: string, pieces: Array<Uint8Array>, chunks: number): Workload => ({
  name,
  description,
  pieces,
  chunks,
  bytes: pieces.reduce((n, p) => n + p.length, 0),
})

/** The four workloads of the issue. `scale` shrinks them for a quick run. */
export const workloads = (scale = 1): Array<Workload> => {
  const n = (k: number) => Math.max(10, Math.round(k * scale))
  return [
    make(
      "net",
      `${n(50_000)} chunks, 1–16 KiB reads`,
      cutRandom(bodyBytes(n(50_000), false), 1024, 16 * 1024),
      n(50_000) + 2,
    ),
    make(
      "logprobs",
      `${n(50_000)} chunks with logprobs (top 5), 1–16 KiB reads`,
      cutRandom(bodyBytes(n(50_000), true), 1024, 16 * 1024),
      n(50_000) + 2,
    ),
    make(
      "per-event",
      `${n(20_000)} chunks, one event per read`,
      events(n(20_000), false).map((e) => encoder.encode(e)),
      n(20_000) + 2,
    ),
    make("tiny", `${n(10_000)} chunks, 1–7-byte reads`, cutRandom(bodyBytes(n(10_000), false), 1, 7), n(10_000) + 2),
  ]
}

/** A body that has every read already queued (as when the network is ahead of the decoder). */
export const queuedBody = (pieces: ReadonlyArray<Uint8Array>): ReadableStream<Uint8Array> =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of pieces) controller.enqueue(p)
      controller.close()
    },
  })
