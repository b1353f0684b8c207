/**
 * The mock Friendli endpoint as the conformance suite sees it: its records and fault queue behind one async
 * interface, whether the mock runs in the test's own process (`localMock`) or in another one, reached over its
 * `/_mock/` control routes (`remoteMock`; workerd, where no socket can be served).
 *
 * Import this entry (not the package's main one) where no test runner is loaded, e.g. in a vitest `globalSetup`.
 *
 * @since 0.1.0
 */

import { MODEL } from "@friendli-stream/test-harness/fixtures"
import {
  createMockFriendli,
  type MockFriendli,
  type MockFriendliOptions,
  type RequestRecord,
} from "@friendli-stream/testing"

export type { RequestRecord } from "@friendli-stream/testing"

/**
 * The bearer token the suite's mock accepts (any other gets 401).
 *
 * @since 0.1.0
 */
export const TOKEN = "test-token"

/** The one model the suite's mock knows (any other gets 404): the harness fixtures' model. */
export { MODEL }

/**
 * The options the suite's mock must be made with, wherever it runs.
 *
 * @since 0.1.0
 */
export const MOCK_OPTIONS: MockFriendliOptions = { tokens: [TOKEN], models: [MODEL] }

/**
 * What the suite reads and drives on the mock.
 *
 * @since 0.1.0
 */
export interface SuiteMock {
  /** Every record, oldest first. */
  requests(): Promise<ReadonlyArray<RequestRecord>>
  /** Queues one fault spec for each following API request. */
  queueFaults(...specs: ReadonlyArray<string>): Promise<void>
  /** Resolves with the record once its client went away; rejects after `timeoutMs`. */
  waitForDisconnect(id: string, timeoutMs?: number): Promise<RequestRecord>
  /** Resolves with the record once its response ended in any way; rejects after `timeoutMs`. */
  waitForSettled(id: string, timeoutMs?: number): Promise<RequestRecord>
}

/**
 * The mock on a socket: the server's base URL (no trailing slash, no deployment path), the mock, and how to stop it.
 *
 * @since 0.1.0
 */
export interface ServedMock {
  readonly url: string
  readonly mock: SuiteMock
  close(): Promise<void>
}

/**
 * A server for the mock, such as `serveNode`, `serveDeno` or `serveBun` of `@friendli-stream/testing`.
 *
 * @since 0.1.0
 */
export type MockServer = (mock: MockFriendli) => Promise<{ readonly url: string; close(): Promise<void> }>

/**
 * The suite's view of a mock in this process.
 *
 * @since 0.1.0
 */
export const localMock = (mock: MockFriendli): SuiteMock => ({
  requests: async () => mock.requests,
  queueFaults: async (...specs) => mock.queueFaults(...specs),
  waitForDisconnect: (id, timeoutMs = 2000) => mock.waitForDisconnect(id, { timeoutMs }),
  waitForSettled: (id, timeoutMs = 2000) => mock.waitForSettled(id, { timeoutMs }),
})

/**
 * Makes the suite's mock and serves it with `serve` on this runtime (127.0.0.1, a free port).
 *
 * @since 0.1.0
 */
export const serveLocalMock = async (serve: MockServer): Promise<ServedMock> => {
  const mock = createMockFriendli(MOCK_OPTIONS)
  const server = await serve(mock)
  return { url: server.url, mock: localMock(mock), close: () => server.close() }
}

const controlJson = async <A>(response: Response, what: string): Promise<A> => {
  const text = await response.text()
  if (!response.ok) throw new Error(`The mock's control route failed to ${what}: ${response.status} ${text}`)
  return JSON.parse(text) as A
}

/**
 * The suite's view of a mock served elsewhere, at `url`, through its `/_mock/` control routes.
 *
 * @since 0.1.0
 */
export const remoteMock = (url: string, fetch: typeof globalThis.fetch = globalThis.fetch): SuiteMock => {
  const wait = async (id: string, what: "disconnect" | "settled", timeoutMs: number) =>
    controlJson<RequestRecord>(
      await fetch(`${url}/_mock/requests/${encodeURIComponent(id)}/${what}?timeout=${timeoutMs}`),
      `wait for the ${what} of ${id}`,
    )
  return {
    requests: async () => controlJson<Array<RequestRecord>>(await fetch(`${url}/_mock/requests`), "list records"),
    queueFaults: async (...specs) => {
      for (const spec of specs) {
        await controlJson(await fetch(`${url}/_mock/faults`, { method: "POST", body: spec }), `queue "${spec}"`)
      }
    },
    waitForDisconnect: (id, timeoutMs = 2000) => wait(id, "disconnect", timeoutMs),
    waitForSettled: (id, timeoutMs = 2000) => wait(id, "settled", timeoutMs),
  }
}
