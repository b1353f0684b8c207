/**
 * Timing of a stream of chunks — time to first token, inter-chunk gaps, tokens per second — measured with Effect's
 * `Clock`, so tests drive it with `TestClock`.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { defaultTokens, type Metrics, MetricsRecorder } from "./internal/metrics.ts"

/**
 * What a measured stream reports.
 *
 * - `timeToFirstTokenMs`: from the start of the stream to the first chunk that carries a token.
 * - `interChunkGapsMs`: the time between each chunk and the one before it.
 * - `tokensPerSecond`: tokens after the first chunk with tokens, over the time from it to the last one.
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
  /** How many tokens an item carries; default: one per choice with text, content, a token id or tool calls. */
  readonly tokens?: ((item: A) => number) | undefined
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
  return Stream.unwrap(
    Effect.map(Clock.currentTimeNanos, (start) => {
      const recorder = new MetricsRecorder(start)
      return self.pipe(
        Stream.mapArrayEffect((chunk) =>
          Effect.map(Clock.currentTimeNanos, (now) => {
            for (const item of chunk) recorder.record(now, tokens(item))
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
