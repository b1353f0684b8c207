import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import { ChunkDecodeError, decodeTranscriptionStream, StreamTruncated, TranscriptionStream } from "../src/index.ts"
import {
  checkEveryCut,
  type Decoders,
  decodeBoth,
  sseEvents,
  transcriptionBody,
  transcriptionEvents,
  transcriptionUsage,
} from "./protocol-support.ts"
import { pieceStream, reads } from "./support.ts"

const decoders: Decoders = {
  effect: (self, options) => TranscriptionStream.decode(self, options ?? {}),
  facade: (body, options) => decodeTranscriptionStream(body, options ?? {}),
}

describe("transcription streams", () => {
  it("decodes the deltas and transcript.text.done, ending at [DONE]", async () => {
    const events = transcriptionEvents()
    const { items, error } = await decodeBoth(decoders, transcriptionBody())
    assert.equal(error, undefined, String(error))
    assert.deepEqual(items, events)
  })

  it("folds a stream into its transcript: the done event's text and usage", async () => {
    const transcript = await Effect.runPromise(
      TranscriptionStream.accumulate(TranscriptionStream.decode(pieceStream(reads(transcriptionBody())))),
    )
    assert.deepEqual(transcript, { text: "Hello world.", usage: transcriptionUsage })
    // Before the done event, the deltas so far.
    const acc = TranscriptionStream.accumulator()
    for (const e of transcriptionEvents().slice(0, 2)) acc.add(e as TranscriptionStream.TranscriptionStreamEvent)
    assert.deepEqual(acc.result(), { text: "Hello world.", usage: null })
  })

  it("is StreamTruncated at every cut before transcript.text.done and [DONE], after every whole event", async () => {
    const events = transcriptionEvents()
    const cuts = await checkEveryCut(decoders, transcriptionBody(), events, (k) =>
      k < events.length ? "transcript.text.done" : '"data: [DONE]" (after transcript.text.done)',
    )
    assert.equal(cuts, (events.length + 1) * 2 - 1, `cuts checked: ${cuts}`)
  })

  it("is StreamTruncated when [DONE] comes without transcript.text.done", async () => {
    const events = transcriptionEvents().slice(0, 2)
    const { items, error } = await decodeBoth(decoders, transcriptionBody(events))
    assert.ok(error instanceof StreamTruncated, String(error))
    assert.ok(error.message.includes("transcript.text.done"), error.message)
    assert.deepEqual(items, events)
  })

  it("accepts a body whose last line is data: [DONE] without the blank line after it", async () => {
    const { items, error } = await decodeBoth(decoders, `${sseEvents(transcriptionEvents(), false)}data: [DONE]\n`)
    assert.equal(error, undefined, String(error))
    assert.deepEqual(items, transcriptionEvents())
  })

  it("fails an unknown event type in strict mode naming it, and delivers it as unknown in compatible mode", async () => {
    const segment = { type: "transcript.text.segment", text: "Hello", speaker: "A", start: 0, end: 1 }
    const events = transcriptionEvents()
    const text = transcriptionBody([segment, ...events])
    const strict = await decodeBoth(decoders, text)
    assert.ok(strict.error instanceof ChunkDecodeError, String(strict.error))
    assert.ok(strict.error.message.includes('"transcript.text.segment"'), strict.error.message)
    const compatible = await decodeBoth(decoders, text, { validation: "compatible" })
    assert.equal(compatible.error, undefined, String(compatible.error))
    assert.deepEqual(compatible.items, [
      { type: "unknown", eventType: "transcript.text.segment", data: segment },
      ...events,
    ])
  })
})
