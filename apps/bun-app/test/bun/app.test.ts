// The samples' shared suite on Bun: the app on Bun.serve, the mock that wants a token on Bun.serve too, and
// `pnpm --filter @friendli-stream/bun-app start` as a child process.
import { appSuite } from "@friendli-stream/sample-service/suite"
import { serveBun } from "@friendli-stream/testing/bun"
import { startApp } from "../../main.ts"

appSuite({ name: "Bun", packageName: "@friendli-stream/bun-app", startApp, serveMock: serveBun })
