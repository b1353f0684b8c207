/**
 * A debug route for load runs, off by default: with `BENCH_STATS=1`, `GET /debug/memory` collects the garbage when
 * the runtime lets it (Node's and Deno's `gc` under `--expose-gc`, Bun's `Bun.gc(true)`) and answers the process's
 * heap and resident memory as JSON, so that a load run can tell memory kept from memory not yet collected.
 */

/**
 * The memory of a service's process, after a full collection when `gc` is `true`.
 *
 * @since 0.3.0
 */
export interface MemoryStats {
  /** Bytes of the JavaScript heap in use. */
  readonly heapUsed: number
  /** Bytes of the process's resident memory. */
  readonly rss: number
  /** Whether a full collection ran first (`false`: the runtime exposes none; start it with `--expose-gc`). */
  readonly gc: boolean
}

interface Runtime {
  readonly gc?: () => void
  readonly Bun?: { readonly gc: (force: boolean) => void }
  readonly Deno?: { memoryUsage(): { readonly heapUsed: number; readonly rss: number } }
  readonly process?: { memoryUsage(): { readonly heapUsed: number; readonly rss: number } }
}

/**
 * Collects the garbage if the runtime exposes a collector (twice, a macrotask apart, so that what the first run's
 * finalizers freed goes too), then reads the process's heap and resident memory.
 *
 * @since 0.3.0
 */
export const memoryStats = async (): Promise<MemoryStats> => {
  const runtime = globalThis as Runtime
  const collect =
    runtime.Bun !== undefined ? () => runtime.Bun!.gc(true) : typeof runtime.gc === "function" ? runtime.gc : undefined
  if (collect !== undefined) {
    for (let i = 0; i < 2; i++) {
      collect()
      await new Promise((next) => setTimeout(next, 0))
    }
  }
  const usage = runtime.Deno !== undefined ? runtime.Deno.memoryUsage() : runtime.process!.memoryUsage()
  return { heapUsed: usage.heapUsed, rss: usage.rss, gc: collect !== undefined }
}

/**
 * `handler` with `GET /debug/memory` ({@link memoryStats} as JSON) in front of it.
 *
 * @since 0.3.0
 */
export const withDebugMemory =
  (handler: (request: Request) => Promise<Response>) =>
  async (request: Request): Promise<Response> =>
    request.method === "GET" && new URL(request.url).pathname === "/debug/memory"
      ? Response.json(await memoryStats())
      : await handler(request)
