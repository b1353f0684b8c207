/**
 * Timing of a stream of chunks — time to first token (of reasoning, of the answer, of either), inter-chunk gaps,
 * tokens per second — measured with Effect's `Clock`, so tests drive it with `TestClock`.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { defaultReasoningTokens, defaultTokens, type Metrics, MetricsRecorder } from "./internal/metrics.ts"

/**
 * What a measured stream reports. A reasoning model streams its reasoning (`delta.reasoning_content`) before its
 * answer; the two are counted apart.
 *
 * - `chunks`: the items that went through.
 * - `answerTokens`: answer tokens, by default one per choice whose chunk has text, content, a token id or tool calls.
 * - `reasoningTokens`: reasoning tokens, by default one per choice whose delta has reasoning text
 *   (`reasoning_content`; in compatible mode also other servers' `reasoning` and Mistral's thinking parts).
 * - `tokens`: `answerTokens + reasoningTokens`.
 * - `timeToFirstTokenMs`: from the start of the stream to the first chunk that carries a token of either kind.
 * - `timeToFirstReasoningTokenMs` / `timeToFirstAnswerTokenMs`: from the start of the stream to the first chunk that
 *   carries reasoning / answer; `undefined` when there was none. For a reasoning model, the second is how long the
 *   reader waits for the answer.
 * - `interChunkGapsMs`, `maxGapMs`: the time between each chunk and the one before it, and the longest.
 * - `tokensPerSecond`: tokens of both kinds after the first chunk with tokens, over the time from it to the last one.
 * - `durationMs`: from the start of the stream to its end.
 *
 * `answerTokens`, `reasoningTokens`, `timeToFirstAnswerTokenMs` and `timeToFirstReasoningTokenMs` are new in 0.2.0;
 * before, `tokens` counted answer tokens only.
 *
 * @since 0.1.0
 */
export type StreamMetrics = Metrics

/**
 * How to measure.
 *
 * @since 0.1.0
 */
export interface MetricsOptions<A> {
  /** How many answer tokens an item carries; default: one per choice with text, content, a token id or tool calls. */
  readonly tokens?: ((item: A) => number) | undefined
  /**
   * How many reasoning tokens an item carries; default: one per choice whose delta has reasoning text.
   *
   * @since 0.2.0
   */
  readonly reasoningTokens?: ((item: A) => number) | undefined
}

/**
 * Passes a stream through unchanged, calling `onEnd` with its metrics when it ends (successfully or not).
 *
 * @since 0.1.0
 */
export const track = <A, E, R, X, R2>(
  self: Stream.Stream<A, E, R>,
  onEnd: (metrics: StreamMetrics) => Effect.Effect<X, never, R2>,
  options?: MetricsOptions<A>,
): Stream.Stream<A, E, R | R2> => {
  const tokens = options?.tokens ?? defaultTokens
  const reasoningTokens = options?.reasoningTokens ?? defaultReasoningTokens
  return Stream.unwrap(
    Effect.map(Clock.currentTimeNanos, (start) => {
      const recorder = new MetricsRecorder(start)
      return self.pipe(
        Stream.mapArrayEffect((chunk) =>
          Effect.map(Clock.currentTimeNanos, (now) => {
            for (const item of chunk) recorder.record(now, tokens(item), reasoningTokens(item))
            return chunk
          }),
        ),
        Stream.ensuring(Effect.flatMap(Clock.currentTimeNanos, (now) => onEnd(recorder.snapshot(now)))),
      )
    }),
  )
}

/**
 * Runs a stream to its end and returns its metrics.
 *
 * @since 0.1.0
 */
export const measure = <A, E, R>(
  self: Stream.Stream<A, E, R>,
  options?: MetricsOptions<A>,
): Effect.Effect<StreamMetrics, E, R> =>
  Effect.suspend(() => {
    let result: StreamMetrics | undefined
    return Effect.map(
      Stream.runDrain(
        track(
          self,
          (m) =>
            Effect.sync(() => {
              result = m
            }),
          options,
        ),
      ),
      () => result as StreamMetrics,
    )
  })
