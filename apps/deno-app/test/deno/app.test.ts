// The samples' shared suite on Deno: the app on Deno.serve, the mock that wants a token on Deno.serve too,
// `pnpm --filter @friendli-stream/deno-app start` as a child process, and two instances (this Deno running main.ts)
// on one Redis.
import { fileURLToPath } from "node:url"
import { appSuite } from "@friendli-stream/sample-service/suite"
import { serveDeno } from "@friendli-stream/testing/deno"
import { startApp } from "../../main.ts"

appSuite({
  name: "Deno",
  packageName: "@friendli-stream/deno-app",
  startApp,
  serveMock: serveDeno,
  service: {
    command: Deno.execPath(),
    args: ["run", "--unstable-no-legacy-abort", "--allow-net", "--allow-env", "main.ts"],
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
  },
})
