// The samples' shared suite on Deno: `pnpm --filter @friendli-stream/deno-app start` as a child process, and one
// instance (this Deno running main.ts) draining on SIGTERM.
import { commandSuite } from "@friendli-stream/sample-service/suite"
import { sample } from "./sample.ts"

commandSuite(sample)
