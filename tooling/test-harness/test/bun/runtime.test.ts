import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"

describe("the Bun suite", () => {
  it("runs on Bun", () => {
    assert.equal(typeof (globalThis as { Bun?: { version?: string } }).Bun?.version, "string")
  })
})
