import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { ChatCompletionStream, StreamMetrics, ToolAssistedChatStream } from "../src/index.ts"
import { chatChunk, pieceStream, reads, runAll, sseBody } from "./support.ts"

/** A Friendli reasoning model's stream: reasoning deltas, then the answer, then a tool call. */
const reasoningStream = [
  chatChunk({ role: "assistant", content: "" }),
  chatChunk({ reasoning_content: "The user wants" }),
  chatChunk({ reasoning_content: " the weather." }),
  chatChunk({ content: "Let me check." }),
  chatChunk({
    tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "weather", arguments: "{}" } }],
  }),
  chatChunk({}, { finish: "tool_calls" }),
]

describe("reasoning", () => {
  it("folds reasoning_content deltas into message.reasoning_content, apart from content and tool calls", async () => {
    const decoded = await runAll(ChatCompletionStream.decode(pieceStream(reads(sseBody(reasoningStream)))))
    assert.equal(decoded.error, undefined, String(decoded.error))
    const completion = await Effect.runPromise(ChatCompletionStream.accumulate(Stream.fromIterable(decoded.items)))
    const message = completion.choices[0]?.message
    assert.equal(message?.reasoning_content, "The user wants the weather.")
    assert.equal(message?.content, "Let me check.")
    assert.deepEqual(
      message?.tool_calls.map((t) => [t.id, t.function.name]),
      [["call_1", "weather"]],
    )
    const plain = ChatCompletionStream.accumulator()
    for (const chunk of decoded.items) plain.add(chunk)
    assert.deepEqual(plain.result(), completion)
  })

  it("leaves message.reasoning_content null when the model sent no reasoning", async () => {
    const decoded = await runAll(
      ChatCompletionStream.decode(pieceStream(reads(sseBody([chatChunk({ content: "hi" })])))),
    )
    const completion = await Effect.runPromise(ChatCompletionStream.accumulate(Stream.fromIterable(decoded.items)))
    assert.equal(completion.choices[0]?.message.reasoning_content, null)
  })

  it("counts reasoning tokens apart from answer tokens, with the time to the first of each", async () => {
    // The role chunk at 10 ms, reasoning at 30 and 60 ms, the answer at 160 ms, the tool call at 210 ms.
    const delays = [10, 20, 30, 100, 50, 0]
    const decoded = await runAll(ChatCompletionStream.decode(pieceStream(reads(sseBody(reasoningStream)))))
    const source = Stream.fromIterable(decoded.items.map((item, i) => [item, delays[i] as number] as const)).pipe(
      Stream.mapEffect(([item, ms]) => Effect.as(Effect.sleep(Duration.millis(ms)), item)),
    )
    const metrics = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(StreamMetrics.measure(source))
        yield* TestClock.adjust(Duration.millis(1000))
        return yield* Fiber.join(fiber)
      }).pipe(Effect.provide(TestClock.layer())),
    )
    assert.equal(metrics.reasoningTokens, 2)
    assert.equal(metrics.answerTokens, 2)
    assert.equal(metrics.tokens, 4)
    assert.equal(metrics.timeToFirstReasoningTokenMs, 30)
    assert.equal(metrics.timeToFirstAnswerTokenMs, 160)
    assert.equal(metrics.timeToFirstTokenMs, 30)
    // Three tokens after the first one, over the 180 ms from it to the last one.
    assert.equal(metrics.tokensPerSecond, (3 * 1000) / 180)
  })

  it("counts the chunks of a tool-assisted stream, and takes a reasoning counter of one's own", async () => {
    const body = `event: tool_status\ndata: ${JSON.stringify({
      tool_call_id: "c",
      name: "math:calculator",
      status: "STARTED",
      parameters: [],
      timestamp: 1,
    })}\n\n${sseBody(reasoningStream)}`
    const events = ToolAssistedChatStream.decode(pieceStream(reads(body)))
    const metrics = await Effect.runPromise(StreamMetrics.measure(events))
    assert.equal(metrics.chunks, 7)
    assert.equal(metrics.reasoningTokens, 2)
    assert.equal(metrics.answerTokens, 2)
    const counted = await Effect.runPromise(
      StreamMetrics.measure(events, { reasoningTokens: (e) => (e._tag === "Chunk" ? 10 : 0), tokens: () => 0 }),
    )
    assert.equal(counted.reasoningTokens, 60)
    assert.equal(counted.answerTokens, 0)
  })
})
