/**
 * `Sse.decode` against an independent WHATWG parser (eventsource-parser, whose own suite follows
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation): random mixes of every
 * kind of line, well-formed or not, cut into random reads, give the same events. eventsource-parser reports `id` and
 * `retry` through callbacks (`onId` at each dispatch, `onRetry` as the field is read); the last values seen are the
 * event's last event ID and the stream's reconnection time, as an `EventSource` would have them.
 */
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { createParser } from "eventsource-parser"
import fc from "fast-check"
import { Sse } from "../src/index.ts"
import { bytes, cutAt, pieceStream, runAll } from "./support.ts"

type Ev = { event: string; data: string; id: string | undefined; retry: number | undefined }

/** What an `EventSource` fed `text` would dispatch, read with eventsource-parser. */
const reference = (text: string): Array<Ev> => {
  const out: Array<Ev> = []
  let lastId: string | undefined
  let retry: number | undefined
  const parser = createParser({
    onEvent: (e) => out.push({ event: e.event ?? "message", data: e.data, id: lastId, retry }),
    onId: (id) => {
      lastId = id === "" ? undefined : id
    },
    onRetry: (ms) => {
      retry = ms
    },
  })
  parser.feed(text)
  return out
}

// Values with the characters that matter: colons, spaces, NUL, digits, non-ASCII; never a line end.
const value = fc
  .array(fc.constantFrom("a", "7", " ", ":", "\u0000", "é", "😀", "0", "-", "."), { maxLength: 6 })
  .map((cs) => cs.join(""))
const digits = fc.nat(99_999).map(String)

const line = fc.oneof(
  value.map((v) => `data: ${v}`),
  value.map((v) => `data:${v}`),
  fc.constant("data"),
  fc.constant("data:"),
  value.map((v) => `event: ${v}`),
  fc.constant("event"),
  value.map((v) => `id: ${v}`),
  fc.constant("id"),
  digits.map((d) => `retry: ${d}`),
  digits.map((d) => `retry:${d}`),
  value.map((v) => `retry: ${v}`),
  value.map((v) => `:${v}`),
  value.map((v) => `Data: ${v}`),
  value.map((v) => `${v}`),
  fc.constant(""),
  fc.constant(""),
)

const streamArb = fc
  .record({
    bom: fc.constantFrom("", "\uFEFF", "\uFEFF\uFEFF"),
    lines: fc.array(fc.tuple(line, fc.constantFrom("\n", "\r", "\r\n")), { maxLength: 30 }),
  })
  .map(({ bom, lines }) => bom + lines.map(([l, eol]) => l + eol).join(""))

describe("WHATWG conformance", () => {
  it("interprets any mix of fields, comments, BOMs and line ends as an independent WHATWG parser does", async () => {
    await fc.assert(
      fc.asyncProperty(
        streamArb.chain((text) =>
          fc.tuple(fc.constant(text), fc.array(fc.nat(Math.max(1, text.length * 2)), { maxLength: 12 })),
        ),
        async ([text, cuts]) => {
          const expected = reference(text)
          const body = bytes(text)
          for (const pieces of [[body], cutAt(body, cuts)]) {
            const { items, error } = await runAll(Sse.decode(pieceStream(pieces)))
            assert.equal(error, undefined)
            assert.deepEqual(items, expected, JSON.stringify(text))
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
