import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"

describe("the workerd suite", () => {
  it("runs inside workerd", () => {
    assert.equal((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent, "Cloudflare-Workers")
  })

  it("has the nodejs_compat modules it needs", async () => {
    const { Buffer } = await import("node:buffer")
    assert.equal(Buffer.from("hi").toString("base64"), "aGk=")
  })
})
