// The samples' shared suite on Bun, in-process: the app and the mock on Bun.serve.
import { inProcessSuite } from "@friendli-stream/sample-service/suite"
import { sample } from "./sample.ts"

inProcessSuite(sample)
