/**
 * Standalone mock on Bun: `bun packages/testing/src/bin/bun.ts --port 8787`.
 *
 * @since 0.1.0
 */
import { serveBun } from "../Bun.ts"
import { createMockFriendli } from "../MockFriendli.ts"
import { parseArgs, USAGE } from "./args.ts"

const options = parseArgs(process.argv.slice(2))
if ("help" in options) {
  console.log(USAGE)
} else {
  const server = await serveBun(createMockFriendli(options.mock), { port: options.port, hostname: options.hostname })
  console.log(`friendli mock (bun) listening on ${server.url}`)
}
