import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { EventId, InvalidEventId } from "../src/index.ts"

const failure = (exit: Exit.Exit<number, InvalidEventId>): InvalidEventId => {
  assert.ok(Exit.isFailure(exit), "expected a failure")
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")
  assert.ok(error !== undefined && error._tag === "Fail" && error.error instanceof InvalidEventId)
  return error.error
}

describe("EventId", () => {
  it("makes distinct 22-character base64url stream ids", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => EventId.makeStreamId()))
    assert.equal(ids.size, 1000)
    for (const id of ids) assert.ok(EventId.isStreamId(id), id)
  })

  it("reads back the seq of an id it wrote for the same stream", () => {
    const id = EventId.makeStreamId()
    assert.equal(Effect.runSync(EventId.parse(id, EventId.format(id, 42))), 42)
  })

  it("refuses a malformed id, naming it", () => {
    const id = EventId.makeStreamId()
    for (const bad of ["", "42", `${id}.`, `${id}.0`, `${id}.01`, `${id}.-1`, `${id}.1.5`, "abc.3", `${id}x.3`]) {
      const error = failure(Effect.runSyncExit(EventId.parse(id, bad)))
      assert.equal(error.reason, "Malformed", bad)
      assert.ok(error.message.includes(JSON.stringify(bad)), error.message)
    }
  })

  it("refuses another stream's id as foreign", () => {
    const mine = EventId.makeStreamId()
    const theirs = EventId.makeStreamId()
    const error = failure(Effect.runSyncExit(EventId.parse(mine, EventId.format(theirs, 3))))
    assert.equal(error.reason, "Foreign")
    assert.ok(error.message.includes(theirs), error.message)
  })
})

describe("EventId.streamIdOf", () => {
  it("names the stream of one of our ids, and nothing for any other text", () => {
    const id = EventId.makeStreamId()
    assert.equal(EventId.streamIdOf(EventId.format(id, 7)), id)
    for (const bad of ["", "7", `${id}.`, `${id}.0`, `.${id}`, "abc.3"])
      assert.equal(EventId.streamIdOf(bad), undefined, bad)
  })
})
