/**
 * The checks every protocol shares: a body cut at each event boundary and in the middle of each event. The synthetic
 * events themselves are the harness's (`@friendli-stream/test-harness/protocol-events`), re-exported.
 */
import assert from "node:assert/strict"
import { collect } from "@friendli-stream/test-harness/fixtures"
import type * as Stream from "effect/Stream"
import { type DecodeOptions, StreamTruncated } from "../src/index.ts"
import { bytes, pieceStream, runAll, testBody } from "./support.ts"

export * from "@friendli-stream/test-harness/protocol-events"
/** One protocol's two decoders over the same bytes. */
export interface Decoders {
  readonly effect: (self: Stream.Stream<Uint8Array>, options?: DecodeOptions) => Stream.Stream<unknown, unknown>
  readonly facade: (body: ReadableStream<Uint8Array>, options?: DecodeOptions) => AsyncIterable<unknown>
}

/** Decodes text on both decoders (the Effect API in one read, the facade in 7-byte reads): both must agree. */
export const decodeBoth = async (
  decoders: Decoders,
  text: string,
  options?: DecodeOptions,
): Promise<{ items: Array<unknown>; error: unknown }> => {
  const all = bytes(text)
  const effect = await runAll(decoders.effect(pieceStream([all]), options))
  const pieces: Array<Uint8Array> = []
  for (let i = 0; i < all.length; i += 7) pieces.push(all.subarray(i, i + 7))
  const facade = await collect(decoders.facade(testBody(pieces).body, options))
  assert.deepEqual(facade.items, effect.items, "the facade delivers what the Effect API delivers")
  // The same failure (its message may differ where it counts the bytes read so far: the reads differ).
  const kind = (e: unknown) => (e === undefined ? "none" : `${(e as Error).name} ${(e as { reason?: string }).reason}`)
  assert.equal(kind(facade.error), kind(effect.error), "the facade fails as the Effect API fails")
  return effect
}

/**
 * Cuts `text` at every event boundary before the end, and in the middle of every event: each cut is
 * `StreamTruncated` (`midEvent` as it should be) after the whole events before it, whose message names `missing`.
 */
export const checkEveryCut = async (
  decoders: Decoders,
  text: string,
  expected: ReadonlyArray<unknown>,
  missing: (eventsBefore: number) => string,
): Promise<number> => {
  const blocks = text.split("\n\n").slice(0, -1)
  let cuts = 0
  let at = 0
  for (let k = 0; k < blocks.length; k++) {
    const block = blocks[k] as string
    for (const [midEvent, end] of [
      [false, at],
      [true, at + Math.floor(block.length / 2)],
    ] as const) {
      if (end === 0 && !midEvent) continue
      const { items, error } = await decodeBoth(decoders, text.slice(0, end))
      const label = `cut at ${end} of ${text.length} (${midEvent ? "inside" : "before"} event ${k})`
      assert.ok(error instanceof StreamTruncated, `${label}: ${String(error)}`)
      assert.equal(error.midEvent, midEvent, label)
      assert.deepEqual(items, expected.slice(0, k), label)
      if (!midEvent) assert.ok(error.message.includes(missing(k)), `${label}: ${error.message}`)
      cuts++
    }
    at += block.length + 2
  }
  return cuts
}
