import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import * as Effect from "effect/Effect"
import { ChatCompletionStream, ChunkDecodeError, decodeChatCompletionStream } from "../src/index.ts"
import { chatChunk, pieceStream, reads, runAll, sseBody, testBody } from "./support.ts"

const compatible = { validation: "compatible" } as const

const chatStream = (values: ReadonlyArray<unknown>) =>
  ChatCompletionStream.decode(pieceStream(reads(sseBody(values))), compatible)

const decodeCompatible = (values: ReadonlyArray<unknown>) => runAll(chatStream(values))

/** The first choice's delta with its extra fields. */
const deltaOf = (c: { readonly choices: ReadonlyArray<{ readonly delta?: unknown }> }) =>
  (c.choices[0]?.delta ?? {}) as Record<string, unknown>

const thinking = (text: string) => ({ type: "thinking", thinking: [{ type: "text", text }] })
const text = (t: string) => ({ type: "text", text: t })

/** A Mistral magistral stream: reasoning as thinking parts, then the answer as parts and as strings. */
const mistral = [
  chatChunk({ role: "assistant", content: "" }),
  chatChunk({ content: [thinking("Okay, the user")] }),
  chatChunk({ content: [thinking(" asks about streets.")] }),
  chatChunk({ content: [thinking(" Done."), text("To cross")] }),
  chatChunk({ content: [text(" the street,")] }),
  chatChunk({ content: " look both ways." }),
  chatChunk({ content: "" }, { finish: "stop" }),
]

describe("compatible chat deltas", () => {
  it("reads Mistral's content parts: text parts as content, thinking parts as reasoning_content", async () => {
    const { items, error } = await decodeCompatible(mistral)
    assert.equal(error, undefined, String(error))
    const deltas = items.map(deltaOf)
    assert.deepEqual(
      deltas.map((d) => [d.content, d.reasoning_content]),
      [
        ["", undefined],
        [null, "Okay, the user"],
        [null, " asks about streets."],
        ["To cross", " Done."],
        [" the street,", undefined],
        [" look both ways.", undefined],
        ["", undefined],
      ],
    )
    // The parts as the server sent them stay on the delta.
    assert.deepEqual(deltas[3]?.content_parts, [thinking(" Done."), text("To cross")])
    const message = (await Effect.runPromise(ChatCompletionStream.accumulate(chatStream(mistral)))).choices[0]?.message
    assert.equal(message?.reasoning_content, "Okay, the user asks about streets. Done.")
    assert.equal(message?.content, "To cross the street, look both ways.")
  })

  it("keeps content parts of other types, and reads a thinking part given as a plain string", async () => {
    const reference = { type: "reference", reference_ids: [1, 2] }
    const { items, error } = await decodeCompatible([
      chatChunk({ content: [{ type: "thinking", thinking: "plain thought" }, text("answer"), reference] }),
    ])
    assert.equal(error, undefined, String(error))
    const delta = deltaOf(items[0] ?? { choices: [] })
    assert.equal(delta.content, "answer")
    assert.equal(delta.reasoning_content, "plain thought")
    assert.deepEqual((delta.content_parts as Array<unknown>)[2], reference)
  })

  it("reads another server's delta.reasoning as reasoning_content, and keeps reasoning_content when both are sent", async () => {
    const { items, error } = await decodeCompatible([
      chatChunk({ role: "assistant", content: "", reasoning: null }),
      chatChunk({ reasoning: "Think" }),
      chatChunk({ reasoning: "ing", reasoning_content: "ing" }),
      chatChunk({ reasoning: "x", reasoning_content: "own" }),
      chatChunk({ content: "Answer" }, { finish: "stop" }),
    ])
    assert.equal(error, undefined, String(error))
    assert.deepEqual(
      items.map((c) => deltaOf(c).reasoning_content),
      [undefined, "Think", "ing", "own", undefined],
    )
  })

  it("leaves a malformed text part to the schema, which names what was wrong", async () => {
    const { items, error } = await decodeCompatible([
      chatChunk({ content: "ok" }),
      chatChunk({ content: [{ type: "text", text: 42 }] }),
    ])
    assert.equal(items.length, 1)
    assert.ok(error instanceof ChunkDecodeError, String(error))
    assert.equal(error.reason, "SchemaMismatch")
    assert.match(error.explanation, /content/)
  })

  it("keeps strict mode to Friendli's spec: content parts fail with SchemaMismatch", async () => {
    const { error } = await runAll(ChatCompletionStream.decode(pieceStream(reads(sseBody([mistral[1]])))))
    assert.ok(error instanceof ChunkDecodeError, String(error))
    assert.equal(error.reason, "SchemaMismatch")
  })

  it("reads content parts the same way through the facade", async () => {
    const effect = await decodeCompatible(mistral)
    const facade = await collect(decodeChatCompletionStream(testBody(reads(sseBody(mistral))).body, compatible))
    assert.equal(facade.error, undefined)
    assert.deepEqual(facade.items, effect.items)
  })
})
