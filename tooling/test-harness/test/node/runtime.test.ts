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

  it("runs on a Node the packages support, Node 22 from 22.19 on or Node 24 (its test script picks which)", () => {
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
    const wanted = `node${major}`
    assert.ok(wanted === "node22" || wanted === "node24", `Node ${process.versions.node} is not one the suites run on`)
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
