/**
 * Standalone mock on Deno: `deno run --allow-net packages/testing/src/bin/deno.ts --port 8790`.
 *
 * @since 0.1.0
 */
import { serveDeno } from "../Deno.ts"
import { createMockFriendli } from "../MockFriendli.ts"
import { runCli } from "./args.ts"

const { Deno } = globalThis as unknown as {
  Deno: { readonly args: ReadonlyArray<string>; exit(code: number): never }
}
await runCli(
  Deno.args,
  async (options) => {
    const server = await serveDeno(createMockFriendli(options.mock), {
      port: options.port,
      hostname: options.hostname,
    })
    console.log(`friendli mock (deno) listening on ${server.url}`)
  },
  (code) => Deno.exit(code),
)
