/** Helpers shared by the portable tests: bytes, bodies cut into reads, and sample chunks. */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"

const encoder = new TextEncoder()

/** The runtime running the tests, as the suites that run on several name it. */
export const RUNTIME = "Deno" in globalThis ? "deno" : "Bun" in globalThis ? "bun" : "node"

/** UTF-8 bytes of a string. */
export const bytes = (s: string): Uint8Array => encoder.encode(s)

/** Joins byte arrays. */
export const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** Cuts bytes at the given offsets (sorted, deduplicated, in range). */
export const cutAt = (all: Uint8Array, cuts: ReadonlyArray<number>): Array<Uint8Array> => {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < all.length))].sort((a, b) => a - b)
  const out: Array<Uint8Array> = []
  let start = 0
  for (const p of points) {
    out.push(all.subarray(start, p))
    start = p
  }
  out.push(all.subarray(start))
  return out
}

/** Cuts bytes into reads of `size` bytes. */
export const cutEvery = (all: Uint8Array, size: number): Array<Uint8Array> => {
  const out: Array<Uint8Array> = []
  for (let i = 0; i < all.length; i += size) out.push(all.subarray(i, i + size))
  return out
}

/** Text cut into reads (each piece encoded on its own: only for ASCII cuts). */
export const reads = (...pieces: ReadonlyArray<string>): Array<Uint8Array> => pieces.map(bytes)

/** A body that hands out one piece per read, and records whether it was cancelled and how many reads happened. */
export interface TestBody {
  readonly body: ReadableStream<Uint8Array>
  readonly state: { cancelled: boolean; pulls: number }
}

export const testBody = (
  pieces: ReadonlyArray<Uint8Array>,
  options?: { readonly error?: unknown; readonly slow?: boolean },
): TestBody => {
  const state = { cancelled: false, pulls: 0 }
  let i = 0
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        state.pulls++
        // A slow body hands out each piece on a later macrotask, like a network.
        if (options?.slow) await new Promise((resolve) => setTimeout(resolve, 0))
        if (i < pieces.length) controller.enqueue(pieces[i++] as Uint8Array)
        else if (options?.error !== undefined) controller.error(options.error)
        else controller.close()
      },
      cancel() {
        state.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  return { body, state }
}

/** An Effect stream of the pieces, one read per Stream chunk (however many pieces: no spread of them as arguments). */
export const pieceStream = (pieces: ReadonlyArray<Uint8Array>): Stream.Stream<Uint8Array> =>
  Stream.rechunk(Stream.fromIterable(pieces), 1)

/** Runs a stream: the items delivered, and the failure (if any). */
export const runAll = <A, E>(stream: Stream.Stream<A, E>): Promise<{ items: Array<A>; error: E | undefined }> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const items: Array<A> = []
      const result = yield* Effect.result(Stream.runForEach(stream, (a) => Effect.sync(() => items.push(a))))
      return { items, error: Result.isFailure(result) ? result.failure : undefined }
    }),
  )

/** A strict Friendli completion chunk as it is on the wire. */
export const completionChunk = (
  text: string,
  options?: {
    readonly index?: number
    readonly token?: number
    readonly finish?: "stop" | "length" | "null" | null
    readonly logprobs?: unknown
  },
): Record<string, unknown> => ({
  id: "cmpl-1",
  object: "text_completion",
  model: "meta-llama-3.1-8b-instruct",
  created: 1_700_000_000,
  choices: [
    {
      index: options?.index ?? 0,
      text,
      ...(options?.token === undefined ? {} : { token: options.token }),
      finish_reason: options?.finish === undefined ? "null" : options.finish,
      ...(options?.logprobs === undefined ? {} : { logprobs: options.logprobs }),
    },
  ],
})

/** A strict Friendli chat chunk as it is on the wire. */
export const chatChunk = (
  delta: Record<string, unknown>,
  options?: { readonly index?: number; readonly finish?: string | null },
) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  model: "meta-llama-3.1-8b-instruct",
  created: 1_700_000_000,
  choices: [
    { index: options?.index ?? 0, delta, finish_reason: options?.finish === undefined ? null : options.finish },
  ],
})

/** An SSE body of `data:` events for the given values, ending with `[DONE]`. */
export const sseBody = (
  values: ReadonlyArray<unknown>,
  options?: { readonly done?: boolean; readonly eol?: string },
): string => {
  const eol = options?.eol ?? "\n"
  const events = values.map((v) => `data: ${JSON.stringify(v)}${eol}${eol}`)
  if (options?.done ?? true) events.push(`data: [DONE]${eol}${eol}`)
  return events.join("")
}
