// This package's workerd suite (`pnpm test:workerd`): the test Worker with its Durable Object store, and the mocks
// that test/workerd/setup.ts serves in Node, bound as strings.
import { workerdConfig } from "../../tooling/test-harness/src/config.ts"

export default workerdConfig({
  main: "test/workerd/worker.ts",
  globalSetup: "test/workerd/setup.ts",
  injectBindings: [
    "SUITE_MOCK_URL",
    "PROXY_MOCK_URL",
    "FRIENDLI_BASE_URL",
    "FRIENDLI_TOKEN",
    "MEMORY_MOCK_URL",
    "MEMORY_PROBE_URL",
  ],
  miniflare: {
    compatibilityFlags: ["enable_request_signal"],
    durableObjects: { STORES: { className: "StoreObject", useSQLite: true } },
  },
  testTimeout: 20_000,
})
