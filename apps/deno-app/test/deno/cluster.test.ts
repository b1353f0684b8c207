// The samples' shared suite on Deno: two instances (this Deno running main.ts) on one Redis.
import { clusterSuite } from "@friendli-stream/sample-service/suite"
import { sample } from "./sample.ts"

clusterSuite(sample.name, sample.service)
