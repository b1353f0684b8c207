import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"

describe("the Deno suite", () => {
  it("runs on Deno", () => {
    assert.equal(typeof (globalThis as { Deno?: { version?: { deno?: string } } }).Deno?.version?.deno, "string")
  })
})
