import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { EventParser, type EventSink, EventTooLong } from "../src/internal/events.ts"
import { type LineSink, LineSplitter, LineTooLong } from "../src/internal/lines.ts"
import { Utf8Decoder } from "../src/internal/utf8.ts"
import { bytes, concat, cutAt } from "./support.ts"

const collectLines = (pieces: ReadonlyArray<string>, max = 1 << 20): Array<string> => {
  const lines: Array<string> = []
  const sink: LineSink = {
    line: (t, s, e) => {
      lines.push(t.slice(s, e))
      return true
    },
  }
  const splitter = new LineSplitter(sink, max)
  for (const p of pieces) splitter.push(p)
  return lines
}

type Ev = { type: string; data: string; id: string | undefined; retry: number | undefined }
const collectEvents = (text: string, max = 1 << 20, errorsWithoutData = false): Array<Ev> => {
  const events: Array<Ev> = []
  const sink: EventSink = {
    event: (type, data, id, retry) => {
      events.push({ type, data, id, retry })
      return true
    },
  }
  const splitter = new LineSplitter(new EventParser(sink, max, errorsWithoutData), max)
  splitter.push(text)
  return events
}

describe("utf8 layer", () => {
  it("keeps a multi-byte character split across reads intact", () => {
    const all = bytes("é€😀")
    for (let a = 1; a < all.length; a++) {
      for (let b = a; b < all.length; b++) {
        const d = new Utf8Decoder()
        const text =
          cutAt(all, [a, b])
            .map((p) => d.push(p))
            .join("") + d.end()
        assert.equal(text, "é€😀")
      }
    }
  })

  it("drops a leading BOM, even split across reads", () => {
    const all = concat([new Uint8Array([0xef, 0xbb, 0xbf]), bytes("data: x")])
    for (let a = 1; a < 4; a++) {
      const d = new Utf8Decoder()
      assert.equal(
        cutAt(all, [a])
          .map((p) => d.push(p))
          .join("") + d.end(),
        "data: x",
      )
    }
  })

  it("drops one leading BOM only, wherever the reads cut the first two BOMs", () => {
    const all = concat([new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), bytes("data: x")])
    for (let a = 0; a < all.length; a++) {
      for (let b = a; b < all.length; b++) {
        const d = new Utf8Decoder()
        const text =
          cutAt(all, [a, b])
            .map((p) => d.push(p))
            .join("") + d.end()
        assert.equal(text, "\uFEFFdata: x", `reads cut at ${a} and ${b}`)
      }
    }
  })

  it("keeps a BOM that is not the first character", () => {
    const d = new Utf8Decoder()
    assert.equal(d.push(bytes("a")) + d.push(bytes("\uFEFFb")) + d.end(), "a\uFEFFb")
  })

  it("turns invalid bytes and an unfinished character at the end into U+FFFD", () => {
    const d = new Utf8Decoder()
    assert.equal(d.push(new Uint8Array([0x61, 0xff, 0x62, 0xe2, 0x82])) + d.end(), "a\uFFFDb\uFFFD")
  })
})

describe("lines layer", () => {
  it("splits on LF, CR and CRLF", () => {
    assert.deepEqual(collectLines(["a\nb\rc\r\nd\n"]), ["a", "b", "c", "d"])
  })

  it("treats a CR and an LF arriving in different reads as one line end", () => {
    assert.deepEqual(collectLines(["a\r", "\nb\r", "\n"]), ["a", "b"])
  })

  it("treats a CR at the end of a read followed by text as a line end", () => {
    assert.deepEqual(collectLines(["a\r", "b\n"]), ["a", "b"])
  })

  it("keeps empty lines between consecutive line ends", () => {
    assert.deepEqual(collectLines(["a\n\nb\r\r\nc\r\n\r\n"]), ["a", "", "b", "", "c", ""])
  })

  it("joins a line read one character at a time", () => {
    assert.deepEqual(collectLines([..."data: hello\r\n\r\n"]), ["data: hello", ""])
  })

  it("holds back a line until its end arrives", () => {
    assert.deepEqual(collectLines(["abc", "def"]), [])
  })

  it("fails when an unfinished line grows past the limit, without a line end ever arriving", () => {
    const s = new LineSplitter({ line: () => true }, 10)
    s.push("0123456789")
    assert.throws(
      () => s.push("x"),
      (e) => e instanceof LineTooLong,
    )
  })

  it("fails when a complete line is longer than the limit", () => {
    const s = new LineSplitter({ line: () => true }, 10)
    assert.throws(
      () => s.push("01234567890\n"),
      (e) => e instanceof LineTooLong,
    )
  })

  it("stops when the sink asks it to", () => {
    const lines: Array<string> = []
    const s = new LineSplitter(
      {
        line: (t, a, b) => {
          lines.push(t.slice(a, b))
          return lines.length < 2
        },
      },
      100,
    )
    s.push("a\nb\nc\n")
    s.push("d\n")
    assert.deepEqual(lines, ["a", "b"])
    assert.equal(s.stopped, true)
  })
})

describe("events layer", () => {
  it("strips exactly one space after the colon, and none when there is none", () => {
    assert.deepEqual(
      collectEvents("data:a\n\ndata: b\n\ndata:  c\n\n").map((e) => e.data),
      ["a", "b", " c"],
    )
  })

  it("joins several data lines with a newline", () => {
    assert.deepEqual(collectEvents("data: a\ndata:\ndata: b\n\n")[0]?.data, "a\n\nb")
  })

  it("ignores comment lines", () => {
    assert.deepEqual(
      collectEvents(": ping\ndata: a\n: more\n\n").map((e) => e.data),
      ["a"],
    )
  })

  it("keeps event, id and retry on the event", () => {
    assert.deepEqual(collectEvents("event: tool_status\nid: 7\nretry: 1500\ndata: x\n\n"), [
      { type: "tool_status", data: "x", id: "7", retry: 1500 },
    ])
  })

  it("names an event without an event field message", () => {
    assert.equal(collectEvents("data: x\n\n")[0]?.type, "message")
  })

  it("ignores a retry that is not all digits instead of failing", () => {
    assert.deepEqual(
      collectEvents("retry: soon\ndata: x\n\nretry: 1e3\ndata: y\n\n").map((e) => e.retry),
      [undefined, undefined],
    )
  })

  it("keeps the last event id for the events that follow, and ignores an id containing NUL", () => {
    assert.deepEqual(
      collectEvents("id: 1\ndata: a\n\ndata: b\n\nid: x\u0000y\ndata: c\n\n").map((e) => e.id),
      ["1", "1", "1"],
    )
  })

  it("dispatches an event whose data is empty, and nothing for a block without a data field", () => {
    assert.deepEqual(
      collectEvents("data:\n\nevent: x\n\nid: 3\n\ndata\n\ndata: a\n\n").map((e) => [e.type, e.data, e.id]),
      [
        ["message", "", undefined],
        ["message", "", "3"],
        ["message", "a", "3"],
      ],
    )
  })

  it("drops an error event without data, unless the JSON layer asks for it", () => {
    assert.deepEqual(collectEvents("event: error\n\n"), [])
    assert.deepEqual(
      collectEvents("event: error\n\nevent: x\n\n", 1 << 20, true).map((e) => [e.type, e.data]),
      [["error", ""]],
    )
  })

  it("keeps a retry sent alone in a block as the reconnection time of the events after it", () => {
    assert.deepEqual(
      collectEvents("retry: 500\n\ndata: a\n\ndata: b\n\nretry: 20\nretry: x\ndata: c\n\n").map((e) => [
        e.data,
        e.retry,
      ]),
      [
        ["a", 500],
        ["b", 500],
        ["c", 20],
      ],
    )
  })

  it("resets the event type after each block, dispatched or not", () => {
    assert.deepEqual(
      collectEvents("event: a\ndata: 1\n\ndata: 2\n\nevent: b\n\ndata: 3\n\n").map((e) => e.type),
      ["a", "message", "message"],
    )
  })

  it("compares field names as they are: Data and DATA are unknown fields", () => {
    assert.deepEqual(
      collectEvents("Data: a\nDATA: b\ndata: c\n\n").map((e) => e.data),
      ["c"],
    )
  })

  it("ignores unknown fields and a field line without a colon", () => {
    assert.deepEqual(collectEvents("foo: bar\ndata\ndata: a\nevent\n\n"), [
      { type: "message", data: "\na", id: undefined, retry: undefined },
    ])
  })

  it("fails when an event's data grows past the limit across lines", () => {
    assert.throws(
      () => collectEvents("data: 1234567\ndata: 1234567\n\n", 14),
      (e) => e instanceof EventTooLong,
    )
  })
})
