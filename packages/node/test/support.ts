// Shared set-up of the Node suites: the mock Friendli endpoint on a real socket, and a count of its connections.
import type { Socket } from "node:net"
import { MOCK_OPTIONS, testClientOptions } from "@friendli-stream/adapter-suite"
import { createMockFriendli, type MockFriendli, type RequestRecord } from "@friendli-stream/testing"
import { type RunningServer, serveNode } from "@friendli-stream/testing/node"
import { createClient, type NodeClientOptions, type PromiseClient } from "../src/index.ts"

export interface Harness {
  readonly mock: MockFriendli
  readonly server: RunningServer
  /** `${server.url}/serverless` */
  readonly baseURL: string
  /** Sockets the server has open right now. */
  readonly openSockets: () => number
  /** A client on the mock with fast retries and short timeouts; `options` override. */
  readonly client: (options?: NodeClientOptions) => PromiseClient
  /** Closes every client made by `client()`, then the server. */
  readonly close: () => Promise<void>
}

export const startMock = async (): Promise<Harness> => {
  const mock = createMockFriendli(MOCK_OPTIONS)
  const served = await serveNode(mock)
  const sockets = new Set<Socket>()
  served.server.on("connection", (socket: Socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  const clients: Array<PromiseClient> = []
  const baseURL = `${served.url}/serverless`
  return {
    mock,
    server: served,
    baseURL,
    openSockets: () => sockets.size,
    client: (options = {}) => {
      const client = createClient({ ...testClientOptions(baseURL), ...options })
      clients.push(client)
      return client
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close()))
      await served.close()
    },
  }
}

/** The API requests the mock saw, oldest first. */
export const apiRequests = (mock: MockFriendli): ReadonlyArray<RequestRecord> =>
  mock.requests.filter((r) => r.api !== undefined)
