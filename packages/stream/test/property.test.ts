import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import fc from "fast-check"
import { CompletionStream, decodeCompletionStream, isStreamError, Sse, SseError } from "../src/index.ts"
import { bytes, completionChunk, concat, cutAt, pieceStream, runAll, testBody } from "./support.ts"

type Ev = { event: string; data: string; id: string | undefined; retry: number | undefined }

const eol = fc.constantFrom("\n", "\r", "\r\n")
// Field values: any text without line ends (multi-byte characters and emoji included).
const value = fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ""))

const eventArb = fc.record({
  event: fc.option(
    value.filter((s) => s.length > 0),
    { nil: undefined },
  ),
  id: fc.option(
    value.map((s) => s.replace(/\0/g, "")),
    { nil: undefined },
  ),
  retry: fc.option(fc.nat(100_000), { nil: undefined }),
  data: fc.array(value, { maxLength: 3 }),
  comment: fc.option(value, { nil: undefined }),
  eols: fc.array(eol, { minLength: 8, maxLength: 8 }),
})

/** A valid event stream and the events it must decode to (a model of WHATWG's interpretation). */
const streamArb = fc
  .record({ bom: fc.boolean(), events: fc.array(eventArb, { maxLength: 8 }) })
  .map(({ bom, events }) => {
    let text = bom ? "\uFEFF" : ""
    let lastId: string | undefined
    let retry: number | undefined
    const expected: Array<Ev> = []
    for (const e of events) {
      let k = 0
      const line = (s: string) => {
        let end = e.eols[k++ % e.eols.length] as string
        // A CR, an empty line and then an LF would read as one CRLF: keep such an empty line's end a CR too.
        if (s === "" && text.endsWith("\r") && end !== "\r") end = "\r"
        text += s + end
      }
      if (e.comment !== undefined) line(`:${e.comment}`)
      if (e.event !== undefined) line(`event: ${e.event}`)
      if (e.id !== undefined) line(`id: ${e.id}`)
      if (e.retry !== undefined) line(`retry: ${e.retry}`)
      for (const d of e.data) line(`data: ${d}`)
      line("")
      if (e.id !== undefined) lastId = e.id === "" ? undefined : e.id
      if (e.retry !== undefined) retry = e.retry
      // WHATWG dispatches every block with a data field, empty data included; id and retry persist.
      if (e.data.length > 0) expected.push({ event: e.event ?? "message", data: e.data.join("\n"), id: lastId, retry })
    }
    return { body: bytes(text), expected }
  })

/** Cut points: random ones, every byte, and between each CR and the LF after it. */
const cutsArb = (length: number) =>
  fc.oneof(
    fc.array(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 20 }),
    fc.constant(Array.from({ length }, (_, i) => i)),
  )

const crlfCuts = (body: Uint8Array): Array<number> => {
  const out: Array<number> = []
  for (let i = 0; i + 1 < body.length; i++) if (body[i] === 0x0d && body[i + 1] === 0x0a) out.push(i + 1)
  return out
}

describe("properties", () => {
  it("decodes every cut of a valid event stream into the same events as the whole body", async () => {
    await fc.assert(
      fc.asyncProperty(
        streamArb.chain((s) => fc.tuple(fc.constant(s), cutsArb(s.body.length))),
        async ([{ body, expected }, cuts]) => {
          const whole = await runAll(Sse.decode(pieceStream([body])))
          assert.deepEqual(whole.items, expected)
          const cut = await runAll(Sse.decode(pieceStream(cutAt(body, cuts))))
          assert.deepEqual(cut.items, expected)
          const split = await runAll(Sse.decode(pieceStream(cutAt(body, crlfCuts(body)))))
          assert.deepEqual(split.items, expected)
        },
      ),
      { numRuns: 150 },
    )
  })

  it("decodes every cut of a valid completion stream into the same chunks, with the Effect API and the facade", async () => {
    const chunkArb = fc.record({
      text: fc.string({ unit: "grapheme", maxLength: 8 }),
      token: fc.nat(50_000),
      finish: fc.constantFrom("null" as const, null, "stop" as const, "length" as const),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(chunkArb, { maxLength: 6 }),
        eol,
        fc.array(fc.nat(4000), { maxLength: 30 }),
        async (chunks, end, cuts) => {
          const wire = chunks.map((c) => completionChunk(c.text, { token: c.token, finish: c.finish }))
          const text = `${wire.map((c) => `data: ${JSON.stringify(c)}${end}${end}`).join("")}data: [DONE]${end}${end}`
          const body = bytes(text)
          const expected = chunks.map((c) => (c.finish === "null" ? null : c.finish))
          const pieces = cutAt(body, cuts)
          const effect = await runAll(CompletionStream.decode(pieceStream(pieces)))
          assert.equal(effect.error, undefined)
          assert.deepEqual(
            effect.items.map((c) => [c.choices[0]?.text, c.choices[0]?.token, c.choices[0]?.finish_reason]),
            chunks.map((c, i) => [c.text, c.token, expected[i]]),
          )
          const facade = await collect(decodeCompletionStream(testBody(pieces).body))
          assert.equal(facade.error, undefined)
          assert.deepEqual(facade.items, effect.items)
          const fromBody = await runAll(CompletionStream.fromReadableStream(testBody(pieces).body))
          assert.deepEqual(fromBody.items, effect.items)
        },
      ),
      { numRuns: 150 },
    )
  })

  it("never fails with anything but a typed error, nor hangs, on mutated bodies", async () => {
    const valid = bytes(
      `: ping\n${[0, 1, 2, 3].map((i) => `id: ${i}\ndata: ${JSON.stringify(completionChunk(`t${i}é`))}\n\n`).join("")}data: [DONE]\n\n`,
    )
    const mutation = fc.oneof(
      fc.record({
        kind: fc.constant("insert" as const),
        at: fc.nat(),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
      }),
      fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(2000), { maxLength: 10 }),
        async (mutations, cuts) => {
          let body = valid
          for (const m of mutations) {
            const at = m.at % (body.length + 1)
            if (m.kind === "insert") body = concat([body.subarray(0, at), m.bytes, body.subarray(at)])
            else if (m.kind === "delete") body = concat([body.subarray(0, at), body.subarray(at + m.length)])
            else body = body.subarray(0, at)
          }
          const pieces = cutAt(body, cuts)
          for (const validation of ["strict", "compatible"] as const) {
            const effect = await runAll(
              CompletionStream.decode(pieceStream(pieces), { validation, maxEventBytes: 4096 }),
            )
            if (effect.error !== undefined) assert.ok(isStreamError(effect.error), String(effect.error))
            const facade = await collect(
              decodeCompletionStream(testBody(pieces).body, { validation, maxEventBytes: 4096 }),
            )
            if (facade.error !== undefined) assert.ok(isStreamError(facade.error), String(facade.error))
            assert.equal(facade.items.length, effect.items.length)
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it("holds no more than the limit of a body that never sends a line end", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 512 }).map((b) => b.map((x) => (x === 0x0a || x === 0x0d ? 0x20 : x))),
        fc.integer({ min: 64, max: 2048 }),
        async (piece, limit) => {
          const pieces = Array.from({ length: Math.ceil((8 * limit) / piece.length) + 1 }, () => piece)
          const { error } = await runAll(Sse.decode(pieceStream(pieces), { maxEventBytes: limit }))
          assert.ok(error instanceof SseError)
          assert.equal(error.reason, "EventTooLarge")
          // Text is never longer than its bytes; U+FFFD stands for at most 3 bytes: the decoder stopped in time.
          assert.ok(
            error.bytesRead <= 4 * limit + piece.length,
            `${error.bytesRead} bytes read for a limit of ${limit}`,
          )
        },
      ),
      { numRuns: 100 },
    )
  })
})
