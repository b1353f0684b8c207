// The bindings of the workerd suite (from test/workerd/setup.ts, through package.json's "injectBindings").
import { env as cloudflareEnv, exports } from "cloudflare:workers"
import type { FriendliEnv } from "../../src/index.ts"

export interface TestEnv extends FriendliEnv {
  /** The adapter suite's mock, in Node. */
  readonly SUITE_MOCK_URL: string
  /** The proxy tests' mock, in Node; `FRIENDLI_BASE_URL` is its `/serverless`. */
  readonly PROXY_MOCK_URL: string
  /** The mock of the proxy's 5,000 requests, in Node. */
  readonly MEMORY_MOCK_URL: string
  /** `GET` answers the workerd process's memory, read from /proc in Node (test/workerd/setup.ts). */
  readonly MEMORY_PROBE_URL: string
}

export const env = cloudflareEnv as unknown as TestEnv

/** The Worker under test (test/workerd/worker.ts, the pool's `main`), through workerd's HTTP pipeline. */
export const worker = (exports as unknown as { default: { fetch: (request: Request) => Promise<Response> } }).default
