import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { StreamMetrics } from "../src/index.ts"

const chunk = (text: string) => ({ choices: [{ index: 0, text }] })

describe("StreamMetrics", () => {
  it("measures time to first token, inter-chunk gaps and tokens per second with the Clock", async () => {
    // A usage-like chunk with no token first, then three tokens 100 ms, 50 ms and 50 ms apart.
    const delays = [20, 100, 50, 50]
    const items = [{ choices: [] }, chunk("a"), chunk("b"), chunk("c")]
    const source = Stream.fromIterable(items.map((item, i) => [item, delays[i] as number] as const)).pipe(
      Stream.mapEffect(([item, ms]) => Effect.as(Effect.sleep(Duration.millis(ms)), item)),
    )
    const metrics = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(StreamMetrics.measure(source))
        yield* TestClock.adjust(Duration.millis(1000))
        return yield* Fiber.join(fiber)
      }).pipe(Effect.provide(TestClock.layer())),
    )
    assert.equal(metrics.chunks, 4)
    assert.equal(metrics.tokens, 3)
    assert.equal(metrics.answerTokens, 3)
    assert.equal(metrics.reasoningTokens, 0)
    assert.equal(metrics.timeToFirstTokenMs, 120)
    assert.equal(metrics.timeToFirstAnswerTokenMs, 120)
    assert.equal(metrics.timeToFirstReasoningTokenMs, undefined)
    assert.deepEqual(metrics.interChunkGapsMs, [100, 50, 50])
    assert.equal(metrics.maxGapMs, 100)
    assert.equal(metrics.tokensPerSecond, 20)
    assert.equal(metrics.durationMs, 220)
  })

  it("reports metrics when the stream fails, and passes the items through unchanged", async () => {
    let reported: StreamMetrics.StreamMetrics | undefined
    const seen: Array<unknown> = []
    const source = Stream.concat(Stream.make(chunk("a"), chunk("b")), Stream.fail("cut" as const))
    const result = await Effect.runPromise(
      Effect.result(
        Stream.runForEach(
          StreamMetrics.track(source, (m) =>
            Effect.sync(() => {
              reported = m
            }),
          ),
          (c) => Effect.sync(() => seen.push(c)),
        ),
      ).pipe(Effect.provide(TestClock.layer())),
    )
    assert.equal(result._tag, "Failure")
    assert.equal(seen.length, 2)
    assert.equal(reported?.tokens, 2)
    assert.equal(reported?.tokensPerSecond, undefined)
  })
})
