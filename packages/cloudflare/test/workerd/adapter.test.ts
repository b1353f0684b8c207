// The adapter conformance suite in workerd: the client on the Worker's fetch, the mock in Node (test/workerd/setup.ts)
// on a real socket, its records read over its control routes.
import { adapterSuite, remoteMock } from "@friendli-stream/adapter-suite"
import { createClient, layer } from "../../src/index.ts"
import { env } from "./env.ts"

const url = env.SUITE_MOCK_URL

adapterSuite({
  name: "Workers",
  createClient,
  layer,
  // workerd says no more than this about a refused connection
  refusedMessage: /Network connection lost/,
  mock: async () => ({ url, mock: remoteMock(url), close: async () => {} }),
})
