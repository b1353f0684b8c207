// The standalone servers as a user runs them: `friendli-mock` (Node), and the Deno and Bun commands of the README.
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { resolve } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"

const root = resolve(import.meta.dirname, "../../../..")
const commands: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
  ["node (friendli-mock)", process.execPath, [resolve(root, "packages/testing/dist/bin/node.js")]],
  ["deno", resolve(root, "node_modules/.bin/deno"), ["run", "--allow-net", "packages/testing/src/bin/deno.ts"]],
  ["bun", resolve(root, "node_modules/.bin/bun"), ["packages/testing/src/bin/bun.ts"]],
]

const run = (command: string, args: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(command, [...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8")
    })
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8")
    })
    child.on("error", fail)
    child.on("close", (code) => done({ code, stdout, stderr }))
  })

describe("the standalone mock servers' command line", () => {
  for (const [name, command, args] of commands) {
    it(`${name}: a bad option prints what was wrong and the usage line, no stack, and exits with 2`, async () => {
      const result = await run(command, [...args, "--verbose"])
      assert.equal(result.code, 2, result.stderr)
      assert.deepEqual(result.stderr.trimEnd().split("\n"), [
        "friendli-mock: unknown option --verbose",
        "Usage: friendli-mock [--port 8790] [--host 127.0.0.1] [--token T]... [--model M]... [--faults SPEC]",
      ])
    }, 30_000)
  }
})
