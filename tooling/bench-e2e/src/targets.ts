/** The rows of each table and the targets of issue 19 beside them. */

/** The Node rows, in table order (names as `rows.ts` has them). */
export const NODE_ROWS = [
  "bare fetch loop",
  "bare undici.request loop",
  "facade: fetch + decodeChatCompletionStream",
  "Promise client, Node default (undici)",
  "Promise client on fetch",
  "Effect client, Stream.runForEach",
  "openai SDK 7",
  "AI SDK streamText: our provider",
  "AI SDK streamText: openai-compatible",
] as const

/** The Deno and Bun rows (`runtime-child.ts`). */
export const RUNTIME_ROWS = ["bare fetch loop", "Promise client"] as const

/** Our three clients. */
export const CLIENTS = [
  "Promise client, Node default (undici)",
  "Promise client on fetch",
  "Effect client, Stream.runForEach",
] as const

/** A target: what it says, and whether the measured ratios meet it. */
export interface Target {
  readonly text: string
  readonly met: boolean
}

/** Measured ratios of one table, by row. */
export type Ratios = Readonly<Record<string, number>>

const below = (limit: number) => (ratio: number | undefined) =>
  ratio === undefined ? undefined : { text: `<= ${limit.toFixed(2)}x`, met: ratio <= limit }

/** The CPU-per-chunk targets of the paced Node table, per row. */
export const pacedTargets = (cpu: Ratios): Record<string, Target | undefined> => {
  const openai = cpu["openai SDK 7"] ?? Number.POSITIVE_INFINITY
  const client = (limit: number) => (ratio: number | undefined) => {
    if (ratio === undefined) return undefined
    const cap = Math.min(limit, openai)
    return { text: `<= ${limit.toFixed(2)}x and < openai (${openai.toFixed(2)}x)`, met: ratio <= cap && ratio < openai }
  }
  const ours = cpu["AI SDK streamText: our provider"]
  const compatible = cpu["AI SDK streamText: openai-compatible"]
  return {
    "Promise client, Node default (undici)": client(1.0)(cpu["Promise client, Node default (undici)"]),
    "Promise client on fetch": client(1.15)(cpu["Promise client on fetch"]),
    "Effect client, Stream.runForEach": client(1.15)(cpu["Effect client, Stream.runForEach"]),
    "AI SDK streamText: our provider":
      ours === undefined || compatible === undefined
        ? undefined
        : { text: `<= openai-compatible (${compatible.toFixed(2)}x)`, met: ours <= compatible },
  }
}

/** The bulk table: every client row <= 1.3x. */
export const bulkTargets = (cpu: Ratios): Record<string, Target | undefined> =>
  Object.fromEntries(CLIENTS.map((row) => [row, below(1.3)(cpu[row])]))

/** Deno and Bun, paced: the client <= 1.15x the runtime's bare fetch loop. */
export const runtimeTargets = (cpu: Ratios): Record<string, Target | undefined> => ({
  "Promise client": below(1.15)(cpu["Promise client"]),
})

/** 1,000 open streams: each client's heap per open stream within 1.5x the bare fetch loop's. */
export const heapTargets = (heap: Ratios): Record<string, Target | undefined> =>
  Object.fromEntries(CLIENTS.map((row) => [row, below(1.5)(heap[row])]))
