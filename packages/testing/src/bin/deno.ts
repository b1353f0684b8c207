/**
 * Standalone mock on Deno: `deno run --allow-net packages/testing/src/bin/deno.ts --port 8787`.
 *
 * @since 0.1.0
 */
import { serveDeno } from "../Deno.ts"
import { createMockFriendli } from "../MockFriendli.ts"
import { parseArgs, USAGE } from "./args.ts"

const { Deno } = globalThis as unknown as { Deno: { args: ReadonlyArray<string> } }
const options = parseArgs(Deno.args)
if ("help" in options) {
  console.log(USAGE)
} else {
  const server = await serveDeno(createMockFriendli(options.mock), { port: options.port, hostname: options.hostname })
  console.log(`friendli mock (deno) listening on ${server.url}`)
}
