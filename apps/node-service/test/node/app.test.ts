// The samples' shared suite on Node: the app on node:http, the mock that wants a token on node:http too,
// `pnpm --filter @friendli-stream/node-service start` as a child process, and two instances (this Node running
// main.ts) on one Redis.
import { fileURLToPath } from "node:url"
import { appSuite } from "@friendli-stream/sample-service/suite"
import { serveNode } from "@friendli-stream/testing/node"
import { startApp } from "../../main.ts"

appSuite({
  name: "Node",
  packageName: "@friendli-stream/node-service",
  startApp,
  serveMock: serveNode,
  service: { command: process.execPath, args: ["main.ts"], cwd: fileURLToPath(new URL("../..", import.meta.url)) },
})
