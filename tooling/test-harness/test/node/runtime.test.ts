import assert from "node:assert/strict"
import { realpathSync } from "node:fs"
import { delimiter, join } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import { NODES } from "../../src/runtimes.ts"

describe("the Node suite", () => {
  it("runs on Node, not Deno or Bun", () => {
    assert.equal(typeof process.versions.node, "string")
    assert.equal("Deno" in globalThis, false)
    assert.equal("Bun" in globalThis, false)
  })

  it("runs on the Node version that run-suite asked for", () => {
    const wanted = process.env.FRIENDLI_TEST_RUNTIME
    assert.ok(
      wanted === "node22" || wanted === "node24",
      `FRIENDLI_TEST_RUNTIME is ${wanted}; run through run-suite.mjs`,
    )
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
    assert.equal(`node${major}`, wanted)
    assert.ok(
      minor >= NODES[wanted].minor,
      `Node ${process.versions.node} is older than ${major}.${NODES[wanted].minor}`,
    )
  })

  it("puts that same Node first on PATH, for the processes the tests start", () => {
    const first = (process.env.PATH ?? "").split(delimiter)[0] ?? ""
    assert.equal(realpathSync(join(first, "node")), realpathSync(process.execPath))
  })
})
