import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import {
  ChatCompletionStream,
  ChunkDecodeError,
  decodeChatCompletionStream,
  ToolAssistedChatStream,
} from "../src/index.ts"
import { chatChunk, pieceStream, reads, runAll, sseBody, testBody } from "./support.ts"

const compatible = { validation: "compatible" } as const

/** A chunk whose delta holds these tool-call deltas. */
const calls = (...deltas: ReadonlyArray<Record<string, unknown>>) => chatChunk({ tool_calls: deltas })
const fn = (name: string | undefined, args: string) => ({
  type: "function",
  function: { ...(name === undefined ? {} : { name }), arguments: args },
})

const finish = chatChunk({}, { finish: "tool_calls" })

/** The indices the decoded chunks carry, and the calls they fold into as [index, id, name, arguments]. */
const decodeCalls = async (values: ReadonlyArray<unknown>) => {
  const decoded = ChatCompletionStream.decode(pieceStream(reads(sseBody(values))), compatible)
  const { items, error } = await runAll(decoded)
  assert.equal(error, undefined, String(error))
  const indices = items.flatMap((c) => (c.choices[0]?.delta?.tool_calls ?? []).map((t) => t.index))
  const completion = await Effect.runPromise(
    ChatCompletionStream.accumulate(Stream.fromIterable(items) as Stream.Stream<(typeof items)[number]>),
  )
  const folded = (completion.choices[0]?.message.tool_calls ?? []).map((t) => [
    t.index,
    t.id,
    t.function.name,
    t.function.arguments,
  ])
  return { indices, folded }
}

describe("tool calls in compatible mode", () => {
  it("attaches a tool-call delta without index to the current call", async () => {
    const { indices, folded } = await decodeCalls([
      calls({ id: "call_a", ...fn("weather", "") }),
      calls({ function: { arguments: '{"city":' } }),
      calls({ function: { arguments: '"Paris"}' } }),
      finish,
    ])
    assert.deepEqual(indices, [0, 0, 0])
    assert.deepEqual(folded, [[0, "call_a", "weather", '{"city":"Paris"}']])
  })

  it("starts a new call for a delta without index that brings another id, in later chunks or the same one", async () => {
    const { indices, folded } = await decodeCalls([
      calls({ id: "call_a", ...fn("weather", '{"city":"Paris"}') }),
      calls({ id: "call_b", ...fn("time", "{}") }, { id: "call_c", ...fn("news", '{"n":') }),
      calls({ function: { arguments: "3}" } }),
      finish,
    ])
    assert.deepEqual(indices, [0, 1, 2, 2])
    assert.deepEqual(folded, [
      [0, "call_a", "weather", '{"city":"Paris"}'],
      [1, "call_b", "time", "{}"],
      [2, "call_c", "news", '{"n":3}'],
    ])
  })

  it("reads index null as no index", async () => {
    const { indices, folded } = await decodeCalls([
      calls({ index: null, id: "call_a", ...fn("weather", "{") }),
      calls({ index: null, id: null, function: { arguments: "}" } }),
      finish,
    ])
    assert.deepEqual(indices, [0, 0])
    assert.deepEqual(folded, [[0, "call_a", "weather", "{}"]])
  })

  it("starts a new call when an index is reused with a different id, and sends later deltas of that index to it", async () => {
    const { indices, folded } = await decodeCalls([
      calls({ index: 0, id: "call_a", ...fn("weather", '{"city":') }),
      calls({ index: 0, function: { arguments: '"Paris"}' } }),
      calls({ index: 0, id: "call_b", ...fn("time", "{") }),
      calls({ index: 0, function: { arguments: "}" } }),
      calls({ index: 1, id: "call_c", ...fn("news", "{}") }),
      finish,
    ])
    assert.deepEqual(indices, [0, 0, 1, 1, 2])
    assert.deepEqual(folded, [
      [0, "call_a", "weather", '{"city":"Paris"}'],
      [1, "call_b", "time", "{}"],
      [2, "call_c", "news", "{}"],
    ])
  })

  it("keeps the server's own indices, an id repeated on every delta, and an id that only comes later", async () => {
    const { indices, folded } = await decodeCalls([
      // Anthropic's compatible endpoint counts from 1; OpenRouter repeats the id on every delta.
      calls({ index: 1, id: "toolu_1", ...fn("weather", "") }),
      calls({ index: 1, id: "toolu_1", function: { arguments: "{}" } }),
      calls({ index: 2, ...fn("time", "{") }),
      calls({ index: 2, id: "late", function: { arguments: "}" } }),
      finish,
    ])
    assert.deepEqual(indices, [1, 1, 2, 2])
    assert.deepEqual(folded, [
      [1, "toolu_1", "weather", "{}"],
      [2, "late", "time", "{}"],
    ])
  })

  it("joins a call started without index to the index the server names for it afterwards", async () => {
    const { indices, folded } = await decodeCalls([
      calls({ id: "call_a", ...fn("weather", "{") }),
      calls({ index: 0, function: { arguments: "}" } }),
      calls({ index: 1, id: "call_b", ...fn("time", "{}") }),
      finish,
    ])
    assert.deepEqual(indices, [0, 0, 1])
    assert.deepEqual(folded, [
      [0, "call_a", "weather", "{}"],
      [1, "call_b", "time", "{}"],
    ])
  })

  it("keeps each choice's calls and each stream's calls apart", async () => {
    const twoChoices = (round: number) => [
      chatChunk({ tool_calls: [{ id: `a${round}`, ...fn("f", "{}") }] }, { index: 0 }),
      chatChunk({ tool_calls: [{ id: `b${round}`, ...fn("g", "{}") }] }, { index: 1 }),
      chatChunk({ tool_calls: [{ id: `c${round}`, ...fn("h", "{}") }] }, { index: 1 }),
    ]
    // One decoder, two streams: the second one's calls start afresh.
    const decode = ChatCompletionStream.decode(compatible)
    for (const round of [1, 2]) {
      const { items, error } = await runAll(decode(pieceStream(reads(sseBody(twoChoices(round))))))
      assert.equal(error, undefined)
      assert.deepEqual(
        items.map((c) => [c.choices[0]?.index, c.choices[0]?.delta?.tool_calls?.[0]?.index]),
        [
          [0, 0],
          [1, 0],
          [1, 1],
        ],
      )
      const facade = await collect(
        decodeChatCompletionStream(testBody(reads(sseBody(twoChoices(round)))).body, compatible),
      )
      assert.deepEqual(facade.items, items)
    }
  })

  it("indexes the chat chunks of a tool-assisted stream too", async () => {
    const body = sseBody([calls({ id: "call_a", ...fn("f", "{}") }), calls({ id: "call_b", ...fn("g", "{}") })])
    const { items, error } = await runAll(ToolAssistedChatStream.decode(pieceStream(reads(body)), compatible))
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((e) => (e._tag === "Chunk" ? e.chunk.choices[0]?.delta?.tool_calls?.[0]?.index : undefined)),
      [0, 1],
    )
  })

  it("follows Friendli's spec in strict mode: a tool-call delta without index fails with SchemaMismatch", async () => {
    const body = sseBody([calls({ id: "call_a", ...fn("weather", "{}") })])
    const { error } = await runAll(ChatCompletionStream.decode(pieceStream(reads(body))))
    assert.ok(error instanceof ChunkDecodeError, String(error))
    assert.equal(error.reason, "SchemaMismatch")
    assert.match(error.explanation, /index/)
  })
})
