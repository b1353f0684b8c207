// The samples' shared suite on Bun: `pnpm --filter @friendli-stream/bun-app start` as a child process, and one
// instance (this Bun running main.ts) draining on SIGTERM.
import { commandSuite } from "@friendli-stream/sample-service/suite"
import { sample } from "./sample.ts"

commandSuite(sample)
