/**
 * One request's telemetry, by the GenAI semantic conventions (`genAi.ts`): a client span through Effect's tracer
 * (`{operation} {model}`, kind `client`), and the client metrics through a {@link GenAiRecorder} (by default Effect's
 * `Metric`, in the runtime's metric registry; the Promise client's `telemetry.meter` records to OpenTelemetry).
 * Streams also record the time to the first chunk and the time per output chunk after it.
 */
import * as Cause from "effect/Cause"
import * as Channel from "effect/Channel"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as Tracer from "effect/Tracer"
import {
  Attr,
  type Attributes,
  CANCELLED,
  emptyObserved,
  errorTypeOf,
  type MetricKey,
  Metrics,
  type Observed,
  observe,
  operationOf,
  PROVIDER_NAME,
  responseAttributes,
} from "./genAi.ts"

/** Where the client records its metrics: one histogram value with its attributes. */
export interface GenAiRecorder {
  readonly record: (key: MetricKey, value: number, attributes: Attributes) => void
}

const histograms = Object.fromEntries(
  Object.entries(Metrics).map(([key, spec]) => [
    key,
    Metric.histogram(spec.name, {
      description: spec.description,
      boundaries: spec.boundaries,
      // Effect's OTLP exporter reads a metric's unit from its `unit` attribute.
      attributes: { unit: spec.unit },
    }),
  ]),
) as Record<MetricKey, Metric.Histogram<number>>

/** Effect metric attributes are text. */
const textAttributes = (attributes: Attributes): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(attributes)) out[k] = Array.isArray(v) ? v.join(",") : String(v)
  return out
}

/**
 * The recorder in force: `undefined` records with Effect's `Metric` (the default); the Promise client's
 * `telemetry.meter` puts an OpenTelemetry one here.
 */
export const CurrentGenAiRecorder = Context.Reference<GenAiRecorder | undefined>(
  "@friendli-stream/client/GenAiRecorder",
  { defaultValue: () => undefined },
)

const record = (
  recorder: GenAiRecorder | undefined,
  context: Context.Context<never>,
  key: MetricKey,
  value: number,
  attributes: Attributes,
): void => {
  if (recorder !== undefined) recorder.record(key, value, attributes)
  else Metric.withAttributes(histograms[key], textAttributes(attributes)).updateUnsafe(value, context)
}

/** What is known of one request before it is sent. */
export interface RequestTelemetry {
  readonly spanName: string
  /** The span's attributes at its start. */
  readonly attributes: Attributes
  /** The attributes of every metric of the request (the span's, but for request parameters). */
  readonly metricAttributes: Attributes
}

/** The telemetry of a request to `path` on `server`; `undefined` when the endpoint is not a GenAI operation. */
export const requestTelemetry = (path: string, request: unknown, server: Attributes): RequestTelemetry | undefined => {
  const operation = operationOf(path)
  if (operation === undefined) return undefined
  const model =
    typeof request === "object" && request !== null ? (request as { readonly model?: unknown }).model : undefined
  const base: Record<string, string | number> = {
    [Attr.operationName]: operation,
    [Attr.providerName]: PROVIDER_NAME,
    ...(server as Record<string, string | number>),
  }
  if (typeof model === "string") base[Attr.requestModel] = model
  return {
    spanName: typeof model === "string" ? `${operation} ${model}` : operation,
    attributes: base,
    metricAttributes: base,
  }
}

const seconds = (nanos: bigint): number => Number(nanos) / 1e9

/** The end of one request: the span's response attributes, its end, the duration and the token usage. */
const finish = (
  t: RequestTelemetry,
  span: Tracer.Span,
  recorder: GenAiRecorder | undefined,
  context: Context.Context<never>,
  observed: Observed,
  errorType: string | undefined,
  start: bigint,
  end: bigint,
  exit: Exit.Exit<unknown, unknown>,
): void => {
  for (const [k, v] of Object.entries(responseAttributes(observed))) span.attribute(k, v)
  if (errorType !== undefined) span.attribute(Attr.errorType, errorType)
  span.end(end, exit)
  const attrs: Record<string, string | number | boolean | ReadonlyArray<string>> = { ...t.metricAttributes }
  if (observed.model !== undefined) attrs[Attr.responseModel] = observed.model
  record(
    recorder,
    context,
    "operationDuration",
    seconds(end - start),
    errorType === undefined ? attrs : { ...attrs, [Attr.errorType]: errorType },
  )
  if (observed.inputTokens !== undefined) {
    record(recorder, context, "tokenUsage", observed.inputTokens, { ...attrs, [Attr.tokenType]: "input" })
  }
  if (observed.outputTokens !== undefined) {
    record(recorder, context, "tokenUsage", observed.outputTokens, { ...attrs, [Attr.tokenType]: "output" })
  }
}

const failureType = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.findErrorOption(cause)
  if (Option.isSome(error)) return errorTypeOf(error.value)
  return Cause.hasInterruptsOnly(cause) ? CANCELLED : "_OTHER"
}

/**
 * A stream with its request's span and metrics. The span starts when the stream is opened (before the request is
 * sent, so retries are inside it) and ends with the stream: at its end, at its failure (`error.type`: the error's
 * `_tag`), or when the consumer stops early (`error.type: cancelled`).
 */
export const instrumentStream = <A, E, R>(
  t: RequestTelemetry | undefined,
  stream: Stream.Stream<A, E, R>,
): Stream.Stream<A, E, R> => {
  if (t === undefined) return stream
  return Stream.fromChannel(
    Channel.fromTransform((_: unknown, scope: Scope.Scope) =>
      Effect.gen(function* () {
        const context = yield* Effect.context<never>()
        const recorder = yield* CurrentGenAiRecorder
        const clock = yield* Clock.Clock
        // The span starts before the request is sent: the attempts (and their HTTP spans) are inside it.
        const span = yield* Effect.makeSpan(t.spanName, { kind: "client", attributes: t.attributes })
        const start = span.status.startTime
        const observed = emptyObserved()
        let last: bigint | undefined
        let errorType: string | undefined
        let ended = false
        yield* Scope.addFinalizerExit(scope, (exit) =>
          Effect.sync(() => {
            const end = clock.currentTimeNanosUnsafe()
            if (errorType === undefined && !ended) {
              errorType = Exit.isFailure(exit) ? failureType(exit.cause) : CANCELLED
            }
            finish(t, span, recorder, context, observed, errorType, start, end, exit)
          }),
        )
        const onError = Effect.onError((cause: Cause.Cause<unknown>) =>
          Effect.sync(() => {
            if (Pull.isDoneCause(cause)) ended = true
            else errorType = failureType(cause)
          }),
        )
        const attrs: Record<string, string | number> = { ...(t.metricAttributes as Record<string, string | number>) }
        const pull = yield* Channel.toPullScoped(stream.channel, scope).pipe(Effect.withParentSpan(span), onError)
        return pull.pipe(
          Effect.map((batch) => {
            const now = clock.currentTimeNanosUnsafe()
            for (const item of batch) {
              observe(observed, item)
              if (observed.model !== undefined && attrs[Attr.responseModel] === undefined) {
                attrs[Attr.responseModel] = observed.model
              }
              if (last === undefined) {
                const ttfc = seconds(now - start)
                span.attribute(Attr.responseTimeToFirstChunk, ttfc)
                record(recorder, context, "timeToFirstChunk", ttfc, attrs)
              } else {
                // Items decoded from one read arrive together: the first of them carries the wait, the rest 0.
                record(recorder, context, "timePerOutputChunk", seconds(now - last), attrs)
              }
              last = now
            }
            return batch
          }),
          Effect.withParentSpan(span),
          onError,
        )
      }),
    ),
  ) as Stream.Stream<A, E, R>
}

/** An effect (a non-streamed request) with its request's span and metrics. */
export const instrumentCreate = <A, E, R>(
  t: RequestTelemetry | undefined,
  effect: Effect.Effect<A, E, R>,
): Effect.Effect<A, E, R> => {
  if (t === undefined) return effect
  return Effect.gen(function* () {
    const context = yield* Effect.context<never>()
    const recorder = yield* CurrentGenAiRecorder
    const clock = yield* Clock.Clock
    const span = yield* Effect.makeSpan(t.spanName, { kind: "client", attributes: t.attributes })
    const exit = yield* Effect.exit(Effect.withParentSpan(effect, span))
    const observed = emptyObserved()
    if (Exit.isSuccess(exit)) observe(observed, exit.value)
    const errorType = Exit.isFailure(exit) ? failureType(exit.cause) : undefined
    finish(t, span, recorder, context, observed, errorType, span.status.startTime, clock.currentTimeNanosUnsafe(), exit)
    return yield* exit
  })
}
