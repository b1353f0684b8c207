import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"

const events: Array<string> = []

beforeAll(() => {
  events.push("file:beforeAll")
})

afterAll(() => {
  // Runs after every test of this file; nothing can observe it but a failure here.
  assert.equal(events.at(-1), "outer:afterAll")
})

describe("the harness", () => {
  beforeAll(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5))
    events.push("outer:beforeAll")
  })

  afterAll(() => {
    events.push("outer:afterAll")
  })

  it("runs file and group beforeAll hooks, outermost first, before the first test", () => {
    assert.deepEqual(events, ["file:beforeAll", "outer:beforeAll"])
  })

  it("awaits an async test body before the next test starts", async () => {
    await new Promise((resolve) => setTimeout(resolve, 10))
    events.push("async test done")
  })

  it("runs tests in declaration order", () => {
    assert.equal(events.at(-1), "async test done")
  })

  describe("a nested group", () => {
    let value = 0

    beforeAll(() => {
      value = 42
      events.push("inner:beforeAll")
    })

    afterAll(() => {
      events.push("inner:afterAll")
    })

    it("runs its own beforeAll after the outer one, once", () => {
      assert.equal(value, 42)
      assert.deepEqual(
        events.filter((e) => e.endsWith("beforeAll")),
        ["file:beforeAll", "outer:beforeAll", "inner:beforeAll"],
      )
    })

    it("shares state set by its beforeAll across its tests", () => {
      value += 1
      assert.equal(value, 43)
    })
  })

  it("accepts a per-test timeout, and runs after the nested group closed", async () => {
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(events.at(-1), "inner:afterAll")
  }, 10_000)

  it("runs a nested group's afterAll when that group's last test is done", () => {
    assert.ok(events.includes("inner:afterAll"))
    assert.ok(!events.includes("outer:afterAll"))
  })
})

describe("a later group", () => {
  it("runs after the earlier group's afterAll", () => {
    assert.equal(events.at(-1), "outer:afterAll")
  })

  it("sees rejected promises as failures that assert.rejects can check", async () => {
    await assert.rejects(Promise.reject(new TypeError("boom")), TypeError)
  })
})

let ranUnskipped = false
describe("skips", () => {
  it.skipIf(undefined)("a test whose skip reason is undefined runs", () => {
    ranUnskipped = true
  })

  it("runs the test whose skip reason was undefined", () => {
    assert.equal(ranUnskipped, true)
  })
})
