// The samples' shared suite on Deno, in-process: the app and the mock on Deno.serve.
import { inProcessSuite } from "@friendli-stream/sample-service/suite"
import { sample } from "./sample.ts"

inProcessSuite(sample)
