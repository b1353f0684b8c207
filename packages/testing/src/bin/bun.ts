/**
 * Standalone mock on Bun: `bun packages/testing/src/bin/bun.ts --port 8790`.
 *
 * @since 0.1.0
 */
import { serveBun } from "../Bun.ts"
import { createMockFriendli } from "../MockFriendli.ts"
import { runCli } from "./args.ts"

await runCli(
  process.argv.slice(2),
  async (options) => {
    const server = await serveBun(createMockFriendli(options.mock), { port: options.port, hostname: options.hostname })
    console.log(`friendli mock (bun) listening on ${server.url}`)
  },
  (code) => process.exit(code),
)
