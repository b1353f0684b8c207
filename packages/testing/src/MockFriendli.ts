/**
 * A mock Friendli endpoint: one Web `Request -> Response` handler with fault injection and a record of what it saw.
 *
 * @since 0.1.0
 */

import { applyFaultSpec } from "./internal/faults.ts"
import { MockCore } from "./internal/handler.ts"
import type { RequestRecord, WaitOptions } from "./internal/records.ts"

export { MockConnectionReset } from "./internal/body.ts"
export type { Api, Deployment, Outcome, RecordEvent, RequestRecord, WaitOptions } from "./internal/records.ts"
export { DEFAULT_MAX_RECORDS } from "./internal/records.ts"
export { API_PATHS } from "./internal/routes.ts"

/**
 * The JSON the mock sent for a request, one value per data event, in order (`[DONE]` left out): the chunks or events
 * of a stream, or the one body of a whole response.
 *
 * @since 0.2.0
 */
export const jsonSent = (record: RequestRecord): Array<Record<string, unknown>> =>
  record.events.flatMap((e) =>
    e.type === "chunk" && e.data !== "[DONE]" ? [JSON.parse(e.data) as Record<string, unknown>] : [],
  )

/**
 * How to build a mock.
 *
 * @since 0.1.0
 */
export interface MockFriendliOptions {
  /** Bearer tokens to accept on serverless and dedicated paths. Default: any non-empty bearer token. */
  readonly tokens?: ReadonlyArray<string>
  /** Serverless models (and dedicated endpoint ids) that exist; others get 404. Default: every name exists. */
  readonly models?: ReadonlyArray<string>
  /** A fault spec applied to every request (below the per-request switches). Default: none. */
  readonly faults?: string
  /** The clock of every record and of `created` (ms since the epoch). Default: `Date.now`. */
  readonly clock?: () => number
  /** The `model` a container answers with when the request has none. Default: `"mock-model"`. */
  readonly containerModel?: string
  /**
   * The most requests `requests` remembers: one more forgets the oldest (settled ones before pending ones), so a
   * long-running service on the mock keeps flat memory. Default 1,000 (`DEFAULT_MAX_RECORDS`); a test that looks
   * further back sets more.
   *
   * @since 0.3.0
   */
  readonly maxRecords?: number
}

/**
 * A Web request handler, as every runtime's server takes it.
 *
 * @since 0.1.0
 */
export type FetchHandler = (request: Request) => Promise<Response>

/**
 * A running mock: its handler, its records, and its fault queue.
 *
 * @since 0.1.0
 */
export interface MockFriendli {
  /** Answers one request. Pass it to a runtime's server, or call it directly in a test. */
  readonly fetch: FetchHandler
  /** The requests seen so far, oldest first (snapshots): the last `maxRecords` of them. */
  readonly requests: ReadonlyArray<RequestRecord>
  /** One request's record, by the id sent back in the `x-mock-request-id` header. */
  request(id: string): RequestRecord | undefined
  /** The most recent request's record. */
  lastRequest(): RequestRecord | undefined
  /** Resolves with the first record (oldest first) that satisfies `predicate` (default: any), now or later. */
  waitForRequest(predicate?: (record: RequestRecord) => boolean, options?: WaitOptions): Promise<RequestRecord>
  /** Resolves when the client of request `id` disconnected (or cancelled the body) before the response ended. */
  waitForDisconnect(id: string, options?: WaitOptions): Promise<RequestRecord>
  /** Resolves when request `id`'s response ended in any way (completed, disconnected, reset or closed). */
  waitForSettled(id: string, options?: WaitOptions): Promise<RequestRecord>
  /** Queues fault specs: each following API request takes the next one (on top of its own switches). */
  queueFaults(...specs: ReadonlyArray<string>): void
  /** Forgets every record. */
  clearRecords(): void
  /** Ends every in-flight response (stalled ones too), marking them `closed`. Servers call this when they stop. */
  close(): void
}

/**
 * Makes a mock Friendli endpoint.
 *
 * @example
 * const mock = createMockFriendli()
 * const res = await mock.fetch(new Request("http://mock/serverless/v1/completions", {
 *   method: "POST",
 *   headers: { authorization: "Bearer test", "x-mock-fault": "truncate:3" },
 *   body: JSON.stringify({ model: "m", prompt: "Hello", stream: true }),
 * }))
 *
 * @since 0.1.0
 */
export const createMockFriendli = (options: MockFriendliOptions = {}): MockFriendli => {
  if (options.maxRecords !== undefined && !(Number.isInteger(options.maxRecords) && options.maxRecords >= 1)) {
    throw new RangeError(`maxRecords must be a whole number of at least 1, not ${options.maxRecords}.`)
  }
  const core = new MockCore(options)
  const recorder = core.recorder
  return {
    fetch: core.fetch,
    get requests() {
      return recorder.all()
    },
    request: (id) => recorder.get(id),
    lastRequest: () => recorder.all().at(-1),
    waitForRequest: (predicate = () => true, waitOptions) =>
      recorder.waitFor("a matching request", () => recorder.all().find(predicate), waitOptions),
    waitForDisconnect: (id, waitOptions) =>
      recorder.waitFor(
        `the client of ${id} to disconnect`,
        () => {
          const r = recorder.get(id)
          return r?.disconnectedAt !== undefined ? r : undefined
        },
        waitOptions,
      ),
    waitForSettled: (id, waitOptions) =>
      recorder.waitFor(
        `the response of ${id} to end`,
        () => {
          const r = recorder.get(id)
          return r !== undefined && r.outcome !== "pending" ? r : undefined
        },
        waitOptions,
      ),
    queueFaults: (...specs) => {
      for (const spec of specs) applyFaultSpec({}, spec)
      core.queue.push(...specs)
    },
    clearRecords: () => recorder.clear(),
    close: () => core.closeAll(),
  }
}

/**
 * The mock's id of the request a response answers (the `x-mock-request-id` header).
 *
 * @since 0.1.0
 */
export const requestIdOf = (response: Response): string => {
  const id = response.headers.get("x-mock-request-id")
  if (id === null) throw new Error("This response has no x-mock-request-id header: it did not come from the mock.")
  return id
}
