/** What the suite's tests share: the adapter under test, the running mock, clients on it, and small helpers. */
import type { ClientConfigError, ClientOptions, FriendliClient, PromiseClient } from "@friendli-stream/client"
import type * as Layer from "effect/Layer"
import { type RequestRecord, type ServedMock, type SuiteMock, TOKEN } from "./mock.ts"

/**
 * The options every adapter's `createClient` and `layer` take: the shared client options and `fetch`.
 *
 * @since 0.1.0
 */
export interface AdapterClientOptions extends ClientOptions {
  readonly fetch?: typeof globalThis.fetch | undefined
}

/**
 * A runtime adapter as the suite tests it.
 *
 * @since 0.1.0
 */
export interface AdapterUnderTest {
  /** The runtime's name, in test names ("Deno", "Bun", "workerd"). */
  readonly name: string
  readonly createClient: (options: AdapterClientOptions) => PromiseClient
  readonly layer: (options: AdapterClientOptions) => Layer.Layer<FriendliClient.FriendliClient, ClientConfigError>
  /** Starts the mock on a real socket; called again when a test needs a fresh one. */
  readonly mock: () => Promise<ServedMock>
  /** What the message of a refused connection says on this runtime (default: `/refused/i`). */
  readonly refusedMessage?: RegExp
  /** Whether `createClient` takes a `fetch` to send requests with (default true). */
  readonly fetchOption?: boolean
}

/**
 * The options of a client under test, on the mock at `baseURL`: its token, fast retries and short timeouts.
 *
 * @since 0.1.0
 */
export const testClientOptions = (baseURL: string): ClientOptions => ({
  token: TOKEN,
  baseURL,
  maxRetries: 2,
  initialRetryDelayMs: 20,
  maxRetryDelayMs: 40,
  firstByteTimeoutMs: 2000,
  idleTimeoutMs: 1000,
})

/** The suite's state: the adapter, the mock it serves, and clients on it that are closed at the end. */
export interface Context {
  readonly adapter: AdapterUnderTest
  /** The mock running now. */
  readonly served: () => ServedMock
  readonly mock: () => SuiteMock
  /** `${served().url}/serverless` */
  readonly baseURL: () => string
  /** A client on the mock with fast retries and short timeouts; `options` override. */
  readonly client: (options?: AdapterClientOptions) => PromiseClient
  /** Closes every client made by `client()`. */
  readonly closeClients: () => Promise<void>
}

export const makeContext = (adapter: AdapterUnderTest): Context & { start(): Promise<void>; stop(): Promise<void> } => {
  let served: ServedMock | undefined
  const clients: Array<PromiseClient> = []
  const current = (): ServedMock => {
    if (served === undefined) throw new Error("The mock is not running: the suite's beforeAll has not run or failed.")
    return served
  }
  const closeClients = async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
  }
  return {
    adapter,
    served: current,
    mock: () => current().mock,
    baseURL: () => `${current().url}/serverless`,
    client: (options = {}) => {
      const client = adapter.createClient({
        ...testClientOptions(`${current().url}/serverless`),
        ...options,
      })
      clients.push(client)
      return client
    },
    closeClients,
    start: async () => {
      served = await adapter.mock()
    },
    stop: async () => {
      await closeClients()
      await served?.close()
      served = undefined
    },
  }
}

/** Polls until `test` holds (every 5 ms, at most `timeoutMs`). */
export const eventually = async (
  what: string,
  test: () => boolean | Promise<boolean>,
  timeoutMs = 2000,
): Promise<void> => {
  const end = Date.now() + timeoutMs
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}.`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** The API requests the mock saw, oldest first. */
export const apiRequests = async (mock: SuiteMock): Promise<ReadonlyArray<RequestRecord>> =>
  (await mock.requests()).filter((r) => r.api !== undefined)

/** The latest API request the mock saw. */
export const lastApiRequest = async (mock: SuiteMock): Promise<RequestRecord> => {
  const last = (await apiRequests(mock)).at(-1)
  if (last === undefined) throw new Error("The mock saw no API request.")
  return last
}

/** How many data events (chunks, `[DONE]` excluded) a record's response carried. */
export const chunksSent = (record: RequestRecord): number =>
  record.events.filter((e) => e.type === "chunk" && e.data !== "[DONE]").length
