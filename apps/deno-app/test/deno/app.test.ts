// The samples' shared suite on Deno: the app on Deno.serve, the mock that wants a token on Deno.serve too, and
// `pnpm --filter @friendli-stream/deno-app start` as a child process.
import { appSuite } from "@friendli-stream/sample-service/suite"
import { serveDeno } from "@friendli-stream/testing/deno"
import { startApp } from "../../main.ts"

appSuite({ name: "Deno", packageName: "@friendli-stream/deno-app", startApp, serveMock: serveDeno })
