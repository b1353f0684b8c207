import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { isSupportedNode, minimumNode, nodeVersion, requireNode, UnsupportedNodeError } from "../src/RequireNode.ts"

describe("the Node version check", () => {
  it("accepts Node 22.19 and later, and refuses older ones", () => {
    assert.deepEqual(minimumNode, [22, 19])
    for (const ok of ["22.19.0", "22.20.1", "23.0.0", "24.22.3", "30.1.0"]) assert.equal(isSupportedNode(ok), true, ok)
    for (const old of ["22.18.9", "22.0.0", "20.20.2", "18.19.1", "8.0.0"])
      assert.equal(isSupportedNode(old), false, old)
  })

  it("says in one line which package needs which Node, and which Node this is", () => {
    const error = new UnsupportedNodeError("@friendli-stream/node", "20.20.2")
    assert.equal(error.message, "@friendli-stream/node needs Node >= 22.19 (this is Node 20.20.2)")
    assert.equal(error.stack, `UnsupportedNodeError: ${error.message}`)
    assert.ok(error instanceof Error)
  })

  it("lets every package load on the runtime the suite runs on (Node 22.19+, Deno, Bun, workerd)", () => {
    requireNode("@friendli-stream/core")
    const version = nodeVersion()
    if (version !== undefined) assert.equal(isSupportedNode(version), true)
  })

  it("does not take Deno's, Bun's or workerd's Node compatibility for a Node", () => {
    const g = globalThis as { Deno?: unknown; Bun?: unknown; navigator?: { userAgent?: unknown } }
    if (g.Deno !== undefined || g.Bun !== undefined || g.navigator?.userAgent === "Cloudflare-Workers") {
      assert.equal(nodeVersion(), undefined)
    } else {
      assert.equal(typeof nodeVersion(), "string")
    }
  })
})
