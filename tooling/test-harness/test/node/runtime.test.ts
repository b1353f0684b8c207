import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"

describe("the Node suite", () => {
  it("runs on Node, not Deno or Bun", () => {
    assert.equal(typeof process.versions.node, "string")
    assert.equal("Deno" in globalThis, false)
    assert.equal("Bun" in globalThis, false)
  })

  it("runs on the Node major version that run-suite asked for", () => {
    const wanted = process.env.FRIENDLI_TEST_RUNTIME
    assert.ok(
      wanted === "node20" || wanted === "node24",
      `FRIENDLI_TEST_RUNTIME is ${wanted}; run through run-suite.mjs`,
    )
    assert.equal(`node${process.versions.node.split(".")[0]}`, wanted)
  })
})
