import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Stream from "effect/Stream"
import { Sse, SseError } from "../src/index.ts"
import { bytes, concat, pieceStream, reads, runAll, testBody } from "./support.ts"

const decodeText = (...pieces: ReadonlyArray<string>) => runAll(Sse.decode(pieceStream(reads(...pieces))))

describe("Sse.decode", () => {
  it("decodes LF, CR and CRLF line endings alike", async () => {
    for (const eol of ["\n", "\r", "\r\n"]) {
      const { items } = await decodeText(`event: a${eol}data: 1${eol}${eol}data: 2${eol}${eol}`)
      assert.deepEqual(
        items.map((e) => [e.event, e.data]),
        [
          ["a", "1"],
          ["message", "2"],
        ],
      )
    }
  })

  it("joins a CR and an LF that arrive in different reads", async () => {
    const { items } = await decodeText("data: 1\r", "\n\r", "\ndata: 2\r\n\r\n")
    assert.deepEqual(
      items.map((e) => e.data),
      ["1", "2"],
    )
  })

  it("drops a leading BOM", async () => {
    const body = concat([new Uint8Array([0xef, 0xbb, 0xbf]), bytes("data: x\n\n")])
    const { items } = await runAll(Sse.decode(pieceStream([body.subarray(0, 2), body.subarray(2)])))
    assert.deepEqual(
      items.map((e) => e.data),
      ["x"],
    )
  })

  it("keeps a multi-byte character split across reads intact", async () => {
    const body = bytes("data: héllo 😀\n\n")
    const { items } = await runAll(Sse.decode(pieceStream([...body].map((b) => new Uint8Array([b])))))
    assert.equal(items[0]?.data, "héllo 😀")
  })

  it("keeps event, id and retry, and never fails on a bad retry", async () => {
    const { items, error } = await decodeText("retry: x\nid: 5\nevent: tool_status\nretry: 20\ndata: {}\n\n")
    assert.equal(error, undefined)
    assert.deepEqual(items, [{ event: "tool_status", data: "{}", id: "5", retry: 20 }])
  })

  it("keeps a retry that arrives in a block without data, as the reconnection time of every event after it", async () => {
    const { items, error } = await decodeText("retry: 500\n\n", "data: a\n\ndata: b\n\nretry: 1000\n\ndata: c\n\n")
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((e) => [e.data, e.retry]),
      [
        ["a", 500],
        ["b", 500],
        ["c", 1000],
      ],
    )
  })

  it("dispatches an event whose data is empty, and no event for a block without data", async () => {
    const { items } = await decodeText("data:\n\n", "event: ping\n\n", "data\n\n", "event: x\ndata: \n\n")
    assert.deepEqual(items, [
      { event: "message", data: "", id: undefined, retry: undefined },
      { event: "message", data: "", id: undefined, retry: undefined },
      { event: "x", data: "", id: undefined, retry: undefined },
    ])
  })

  it("keeps the last event id from event to event, also one sent in a block without data, until an empty id", async () => {
    const { items } = await decodeText("id: 1\n\ndata: a\n\ndata: b\n\nid: 2\nid: x\u0000\ndata: c\n\nid\ndata: d\n\n")
    assert.deepEqual(
      items.map((e) => [e.data, e.id]),
      [
        ["a", "1"],
        ["b", "1"],
        ["c", "2"],
        ["d", undefined],
      ],
    )
  })

  it("ignores a retry that is not ASCII digits only, keeping the one before", async () => {
    const { items } = await decodeText("retry: 30\n\nretry: 1.5\nretry: -1\nretry:  40\nretry: ４\ndata: a\n\n")
    assert.deepEqual(
      items.map((e) => e.retry),
      [30],
    )
  })

  it("does not dispatch an error event without data (WHATWG drops it)", async () => {
    const { items, error } = await decodeText("event: error\n\ndata: a\n\n")
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((e) => [e.event, e.data]),
      [["message", "a"]],
    )
  })

  it("drops one leading BOM only: a second one is part of the first field's name", async () => {
    const { items } = await decodeText("\uFEFF\uFEFFdata: lost\n\ndata: kept\n\n")
    assert.deepEqual(
      items.map((e) => e.data),
      ["kept"],
    )
  })

  it("drops an event the body ends in the middle of", async () => {
    const { items, error } = await decodeText("data: 1\n\ndata: 2\n")
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((e) => e.data),
      ["1"],
    )
  })

  it("treats [DONE] as an ordinary event", async () => {
    const { items } = await decodeText("data: [DONE]\n\ndata: after\n\n")
    assert.deepEqual(
      items.map((e) => e.data),
      ["[DONE]", "after"],
    )
  })

  it("fails with EventTooLarge on a line that never ends, holding no more than the limit", async () => {
    const piece = bytes("x".repeat(1024))
    const endless = Stream.make(piece).pipe(Stream.forever, Stream.take(10_000))
    const { items, error } = await runAll(Sse.decode(endless, { maxEventBytes: 64 * 1024 }))
    assert.deepEqual(items, [])
    assert.ok(error instanceof SseError)
    assert.equal(error.reason, "EventTooLarge")
    assert.ok(error.bytesRead <= 64 * 1024 + 1024)
    assert.match(error.message, /maxEventBytes/)
  })

  it("fails with EventTooLarge on an event of many short lines over the limit", async () => {
    const { error } = await decodeText(`data: 1\n\n${"data: abcdefgh\n".repeat(100)}\n`)
    assert.equal(error, undefined)
    const limited = await runAll(
      Sse.decode(pieceStream(reads(`${"data: abcdefgh\n".repeat(100)}\n`)), { maxEventBytes: 500 }),
    )
    assert.ok(limited.error instanceof SseError)
    assert.equal(limited.error.reason, "EventTooLarge")
  })

  it("passes an upstream failure through unchanged", async () => {
    const failing = Stream.concat(pieceStream(reads("data: 1\n\n")), Stream.fail("boom" as const))
    const { items, error } = await runAll(Sse.decode(failing))
    assert.equal(items.length, 1)
    assert.equal(error, "boom")
  })

  it("reads a ReadableStream body and releases it at the end", async () => {
    const { body, state } = testBody(reads("data: a\n", "\ndata: b\n\n"))
    const { items } = await runAll(Sse.fromReadableStream(body))
    assert.deepEqual(
      items.map((e) => e.data),
      ["a", "b"],
    )
    assert.equal(state.cancelled, false)
  })
})
