// A Worker under `wrangler dev` (workerd) on a real socket, for the Node suites that drive one over HTTP.
import { unstable_startWorker } from "wrangler"

/**
 * Starts the Worker of a wrangler config on 127.0.0.1 (a free port unless `port` is given), with no inspector,
 * file watching, persistence, logs or metrics, and `vars` as plain-text bindings; resolves once it answers.
 *
 * @param {import("./wrangler.d.mts").StartWorkerOptions} options
 * @returns {Promise<import("./wrangler.d.mts").StartedWorker>}
 * @since 0.1.0
 */
export const startWorker = async ({ config, port = 0, vars = {} }) => {
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
