// The samples' shared suite on Bun: the app on Bun.serve, the mock that wants a token on Bun.serve too,
// `pnpm --filter @friendli-stream/bun-app start` as a child process, and two instances (this Bun running main.ts)
// on one Redis.
import { fileURLToPath } from "node:url"
import { appSuite } from "@friendli-stream/sample-service/suite"
import { serveBun } from "@friendli-stream/testing/bun"
import { startApp } from "../../main.ts"

appSuite({
  name: "Bun",
  packageName: "@friendli-stream/bun-app",
  startApp,
  serveMock: serveBun,
  service: { command: process.execPath, args: ["main.ts"], cwd: fileURLToPath(new URL("../..", import.meta.url)) },
})
