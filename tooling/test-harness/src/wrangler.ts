// A Worker under `wrangler dev` (workerd) on a real socket, for the Node suites that drive one over HTTP.
import { unstable_startWorker } from "wrangler"

/**
 * What to start: a wrangler config, where to listen and which variables to bind.
 *
 * @since 0.1.0
 */
export interface StartWorkerOptions {
  /** The absolute path of the Worker's wrangler config (`wrangler.jsonc`). */
  readonly config: string
  /** The port on 127.0.0.1 (default 0: a free one). */
  readonly port?: number
  /** Plain-text bindings of the Worker (`env.NAME`), over those of the config. */
  readonly vars?: Readonly<Record<string, string>>
}

/**
 * A running Worker.
 *
 * @since 0.1.0
 */
export interface StartedWorker {
  /** Its origin, e.g. `http://127.0.0.1:8787` (no trailing slash). */
  readonly url: string
  /** Stops the Worker and wrangler's dev server. */
  stop(): Promise<void>
}

/**
 * Starts the Worker of a wrangler config on 127.0.0.1 (a free port unless `port` is given), with no inspector,
 * file watching, persistence, logs or metrics, and `vars` as plain-text bindings; resolves once it answers.
 *
 * @since 0.1.0
 */
export const startWorker = async ({ config, port = 0, vars = {} }: StartWorkerOptions): Promise<StartedWorker> => {
  process.env.WRANGLER_SEND_METRICS = "false"
  const worker = await unstable_startWorker({
    config,
    ...(Object.keys(vars).length === 0
      ? {}
      : {
          bindings: Object.fromEntries(
            Object.entries(vars).map(([name, value]) => [name, { type: "plain_text", value }]),
          ),
        }),
    dev: {
      server: { hostname: "127.0.0.1", port },
      inspector: false,
      watch: false,
      persist: false,
      logLevel: "none",
    },
  })
  try {
    await worker.ready
    const url = (await worker.url).origin
    return { url, stop: () => worker.dispose() }
  } catch (error) {
    await worker.dispose().catch(() => {})
    throw error
  }
}
