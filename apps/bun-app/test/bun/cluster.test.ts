// The samples' shared suite on Bun: two instances (this Bun running main.ts) on one Redis.
import { clusterSuite } from "@friendli-stream/sample-service/suite"
import { sample } from "./sample.ts"

clusterSuite(sample.name, sample.service)
