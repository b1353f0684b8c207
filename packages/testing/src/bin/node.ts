#!/usr/bin/env node
/**
 * Standalone mock on Node: `node packages/testing/dist/bin/node.js --port 8787`.
 *
 * @since 0.1.0
 */
import { createMockFriendli } from "../MockFriendli.ts"
import { serveNode } from "../Node.ts"
import { parseArgs, USAGE } from "./args.ts"

const options = parseArgs(process.argv.slice(2))
if ("help" in options) {
  console.log(USAGE)
} else {
  const server = await serveNode(createMockFriendli(options.mock), { port: options.port, hostname: options.hostname })
  console.log(`friendli mock (node) listening on ${server.url}`)
  const stop = () => void server.close().then(() => process.exit(0))
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}
