#!/usr/bin/env node
/**
 * Standalone mock on Node: `node packages/testing/dist/bin/node.js --port 8790` (the `friendli-mock` bin).
 *
 * @since 0.1.0
 */
import "../internal/requireNode.ts"
import { createMockFriendli } from "../MockFriendli.ts"
import { serveNode } from "../Node.ts"
import { runCli } from "./args.ts"

await runCli(
  process.argv.slice(2),
  async (options) => {
    const server = await serveNode(createMockFriendli(options.mock), {
      port: options.port,
      hostname: options.hostname,
    })
    console.log(`friendli mock (node) listening on ${server.url}`)
    const stop = () => void server.close().then(() => process.exit(0))
    process.on("SIGINT", stop)
    process.on("SIGTERM", stop)
  },
  (code) => process.exit(code),
)
