/**
 * What a child measures, on any runtime: rounds of `streams` concurrent streams of one row (CPU time of the process
 * per chunk, wall time per stream), and the heap per open stream with `streams` streams held open after their first
 * item.
 */
import process from "node:process"

/** Reads one stream, calling `onItem` per item the row hands its user; resolves at its end. */
export type Row = (base: string, onItem: (item: unknown) => void) => Promise<void>

/** What one child reports for a timed run. */
export interface TimedResult {
  /** CPU time (user + system) of the process per chunk the server sent, in microseconds. */
  readonly cpuPerChunkUs: number
  /** Mean wall time of one stream, request to end, in milliseconds. */
  readonly wallPerStreamMs: number
  /** Items the row handed on per stream (the AI SDK rows count text deltas). */
  readonly itemsPerStream: number
}

/** What one child reports for a memory run. */
export interface HeapResult {
  /** The heap (after GC) per open stream, in bytes. */
  readonly heapPerStreamBytes: number
}

const gc = async (): Promise<void> => {
  const g = globalThis as { gc?: () => void; Bun?: { gc(force: boolean): void } }
  const bun = g.Bun
  const collect = g.gc ?? (bun === undefined ? undefined : () => bun.gc(true))
  if (collect === undefined) throw new Error("run with --expose-gc (Node), --v8-flags=--expose-gc (Deno) or Bun")
  for (let i = 0; i < 3; i++) {
    collect()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** One round: `streams` streams at once; the items and the summed wall time. */
const round = async (row: Row, base: string, streams: number) => {
  let items = 0
  let wall = 0
  const onItem = () => {
    items++
  }
  await Promise.all(
    Array.from({ length: streams }, async () => {
      const start = performance.now()
      await row(base, onItem)
      wall += performance.now() - start
    }),
  )
  return { items, wall }
}

/** Warm-up rounds, then `rounds` measured rounds of `streams` streams of `chunks` chunks each. */
export const timed = async (
  row: Row,
  base: string,
  options: { streams: number; chunks: number; rounds: number; warmup: number },
): Promise<TimedResult> => {
  for (let i = 0; i < options.warmup; i++) await round(row, base, options.streams)
  await gc()
  let items = 0
  let wall = 0
  const before = process.cpuUsage()
  for (let i = 0; i < options.rounds; i++) {
    const r = await round(row, base, options.streams)
    items += r.items
    wall += r.wall
  }
  const cpu = process.cpuUsage(before)
  const streams = options.rounds * options.streams
  return {
    cpuPerChunkUs: (cpu.user + cpu.system) / (streams * options.chunks),
    wallPerStreamMs: wall / streams,
    itemsPerStream: items / streams,
  }
}

/** After a warm-up on `warmBase`, `streams` streams of `holdBase` (which sends one event, then holds) kept open. */
export const heap = async (row: Row, warmBase: string, holdBase: string, streams: number): Promise<HeapResult> => {
  await round(row, warmBase, 20)
  await gc()
  const before = process.memoryUsage().heapUsed
  let open = 0
  const all = new Promise<void>((resolve) => {
    for (let i = 0; i < streams; i++) {
      let first = true
      row(holdBase, () => {
        if (!first) return
        first = false
        if (++open === streams) resolve()
      }).catch((e) => {
        console.error(e)
        process.exit(1)
      })
    }
  })
  await all
  await gc()
  const after = process.memoryUsage().heapUsed
  return { heapPerStreamBytes: (after - before) / streams }
}

/** The child's command line: `--row NAME --port N --mode paced|bulk|hold --streams N --chunks N --rounds N --warmup N`. */
export const childArgs = (argv: ReadonlyArray<string>) => {
  const get = (name: string, fallback?: string): string => {
    const i = argv.indexOf(`--${name}`)
    const value = i === -1 ? fallback : argv[i + 1]
    if (value === undefined) throw new Error(`missing --${name}`)
    return value
  }
  return {
    row: get("row"),
    port: Number(get("port")),
    mode: get("mode"),
    streams: Number(get("streams", "100")),
    chunks: Number(get("chunks", "200")),
    rounds: Number(get("rounds", "2")),
    warmup: Number(get("warmup", "1")),
  }
}

/** Runs the child's job for `rows` and prints its result as one JSON line. */
export const runChild = async (rows: Record<string, () => Row>, argv: ReadonlyArray<string>): Promise<void> => {
  const args = childArgs(argv)
  const make = rows[args.row]
  if (make === undefined) throw new Error(`no row named ${JSON.stringify(args.row)}: ${Object.keys(rows).join(", ")}`)
  const row = make()
  const origin = `http://127.0.0.1:${args.port}`
  const result =
    args.mode === "hold"
      ? await heap(row, `${origin}/bulk/${args.chunks}`, `${origin}/hold/${args.chunks}`, args.streams)
      : await timed(row, `${origin}/${args.mode}/${args.chunks}`, args)
  console.log(JSON.stringify(result))
  process.exit(0)
}
