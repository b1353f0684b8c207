// This app's workerd suite (`pnpm test:workerd`): the Worker as wrangler.jsonc declares it, with the token mock
// that test/workerd/setup.ts serves in Node.
import { workerdConfig } from "../../tooling/test-harness/src/config.ts"

export default workerdConfig({
  wrangler: { configPath: "wrangler.jsonc" },
  globalSetup: "test/workerd/setup.ts",
  injectBindings: ["TOKEN_MOCK_URL"],
  testTimeout: 60_000,
})
