// The mock Friendli endpoint on a real socket, providers pointed at it, and what the mock sent, read from its records.
import { createMockFriendli, jsonSent, type MockFriendli, type RequestRecord } from "@friendli-stream/testing"
import { type RunningServer, serveNode } from "@friendli-stream/testing/node"
import { createFriendli, type FriendliProvider, type FriendliProviderSettings } from "../src/index.ts"

// The AI SDK logs each warning to the console; the tests read them from the results instead.
;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

export const TOKEN = "flp_test_token"
export const MODEL = "meta-llama-3.1-8b-instruct"

export interface Harness {
  readonly mock: MockFriendli
  readonly server: RunningServer
  /** A provider on the mock's serverless API; `faults` go in the base URL (`/_fault/SPEC/serverless`). */
  readonly provider: (faults?: string, settings?: FriendliProviderSettings) => FriendliProvider
  readonly close: () => Promise<void>
}

export const startMock = async (): Promise<Harness> => {
  const mock = createMockFriendli({ tokens: [TOKEN] })
  const server = await serveNode(mock)
  return {
    mock,
    server,
    provider: (faults, settings = {}) =>
      createFriendli({
        token: TOKEN,
        baseURL: `${server.url}${faults === undefined ? "" : `/_fault/${faults}`}/serverless`,
        ...settings,
      }),
    close: () => server.close(),
  }
}

type Delta = { content?: string | null; reasoning_content?: string | null }
type Choice = { index: number; delta?: Delta; text?: string }

/** The text of choice `index` the mock sent (chat content or completion text). */
export const sentText = (record: RequestRecord, index = 0): string =>
  jsonSent(record)
    .flatMap((c) => (c.choices as Array<Choice> | undefined) ?? [])
    .filter((c) => c.index === index)
    .map((c) => c.delta?.content ?? c.text ?? "")
    .join("")

/** The reasoning of choice 0 the mock sent. */
export const sentReasoning = (record: RequestRecord): string =>
  jsonSent(record)
    .flatMap((c) => (c.choices as Array<Choice> | undefined) ?? [])
    .filter((c) => c.index === 0)
    .map((c) => c.delta?.reasoning_content ?? "")
    .join("")

/** The usage of the mock's last chunk that had one. */
export const sentUsage = (record: RequestRecord): Record<string, unknown> => {
  const withUsage = jsonSent(record).filter((c) => c.usage !== undefined && c.usage !== null)
  const last = withUsage[withUsage.length - 1]
  if (last === undefined) throw new Error(`The mock sent no usage for ${record.id}`)
  return last.usage as Record<string, unknown>
}

/** The API requests the mock saw (control routes are not recorded). */
export const apiRequests = (mock: MockFriendli): ReadonlyArray<RequestRecord> => mock.requests
