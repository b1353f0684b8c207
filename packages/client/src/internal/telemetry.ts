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

/**
 * Where the client records its metrics: `histogram(key, attributes)` is the series of one metric with those
 * attributes, bound once (per stream) so that recording a value is cheap.
 */
export interface GenAiRecorder {
  readonly histogram: (key: MetricKey, attributes: Attributes) => (value: number) => void
}

/** Effect metric attributes are text. */
const textAttributes = (attributes: Attributes): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(attributes)) out[k] = Array.isArray(v) ? v.join(",") : String(v)
  return out
}

/**
 * Effect's `Metric`, in the registry of `context`. Each series is a histogram with its attributes fixed (the
 * registry finds it by a key computed once), and the unit in its `unit` attribute, where Effect's OTLP exporter
 * reads a metric's unit.
 */
const effectRecorder = (context: Context.Context<never>): GenAiRecorder => ({
  histogram: (key, attributes) => {
    const spec = Metrics[key]
    const metric = Metric.histogram(spec.name, {
      description: spec.description,
      boundaries: spec.boundaries,
      attributes: { unit: spec.unit, ...textAttributes(attributes) },
    })
    return (value) => metric.updateUnsafe(value, context)
  },
})

/**
 * The recorder in force: `undefined` records with Effect's `Metric` (the default); the Promise client's
 * `telemetry.meter` puts an OpenTelemetry one here.
 */
export const CurrentGenAiRecorder = Context.Reference<GenAiRecorder | undefined>(
  "@friendli-stream/client/GenAiRecorder",
  { defaultValue: () => undefined },
)

/** The recorder of the running fiber. */
const currentRecorder = Effect.map(
  Effect.context<never>(),
  (context) => Context.get(context, CurrentGenAiRecorder) ?? effectRecorder(context),
)

/** What is known of one request before it is sent. */
export interface RequestTelemetry {
  readonly spanName: string
  /** The span's attributes at its start, which every metric of the request carries too. */
  readonly attributes: Attributes
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
  }
}

const seconds = (nanos: bigint): number => Number(nanos) / 1e9

/** The end of one request: the span's response attributes, its end, the duration and the token usage. */
const finish = (
  t: RequestTelemetry,
  span: Tracer.Span,
  recorder: GenAiRecorder,
  observed: Observed,
  errorType: string | undefined,
  start: bigint,
  end: bigint,
  exit: Exit.Exit<unknown, unknown>,
): void => {
  for (const [k, v] of Object.entries(responseAttributes(observed))) span.attribute(k, v)
  if (errorType !== undefined) span.attribute(Attr.errorType, errorType)
  span.end(end, exit)
  const attrs: Record<string, string | number | boolean | ReadonlyArray<string>> = { ...t.attributes }
  if (observed.model !== undefined) attrs[Attr.responseModel] = observed.model
  recorder.histogram(
    "operationDuration",
    errorType === undefined ? attrs : { ...attrs, [Attr.errorType]: errorType },
  )(seconds(end - start))
  if (observed.inputTokens !== undefined) {
    recorder.histogram("tokenUsage", { ...attrs, [Attr.tokenType]: "input" })(observed.inputTokens)
  }
  if (observed.outputTokens !== undefined) {
    recorder.histogram("tokenUsage", { ...attrs, [Attr.tokenType]: "output" })(observed.outputTokens)
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
        const recorder = yield* currentRecorder
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
            finish(t, span, recorder, observed, errorType, start, end, exit)
          }),
        )
        const onError = Effect.onError((cause: Cause.Cause<unknown>) =>
          Effect.sync(() => {
            if (Pull.isDoneCause(cause)) ended = true
            else errorType = failureType(cause)
          }),
        )
        let perChunk: ((value: number) => void) | undefined
        const pull = yield* Channel.toPullScoped(stream.channel, scope).pipe(Effect.withParentSpan(span), onError)
        return pull.pipe(
          Effect.map((batch) => {
            const now = clock.currentTimeNanosUnsafe()
            for (const item of batch) {
              observe(observed, item)
              if (perChunk === undefined) {
                // The first chunk: its model (when it names one) is the response model of the chunk metrics.
                const attrs =
                  observed.model === undefined
                    ? t.attributes
                    : { ...t.attributes, [Attr.responseModel]: observed.model }
                const ttfc = seconds(now - start)
                span.attribute(Attr.responseTimeToFirstChunk, ttfc)
                recorder.histogram("timeToFirstChunk", attrs)(ttfc)
                perChunk = recorder.histogram("timePerOutputChunk", attrs)
              } else {
                // Items decoded from one read arrive together: the first of them carries the wait, the rest 0.
                perChunk(seconds(now - (last as bigint)))
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
    const recorder = yield* currentRecorder
    const clock = yield* Clock.Clock
    const span = yield* Effect.makeSpan(t.spanName, { kind: "client", attributes: t.attributes })
    return yield* Effect.withParentSpan(effect, span).pipe(
      // onExit: an interrupted request (an abort) ends its span too, with error.type `cancelled`.
      Effect.onExit((exit) =>
        Effect.sync(() => {
          const observed = emptyObserved()
          if (Exit.isSuccess(exit)) observe(observed, exit.value)
          const errorType = Exit.isFailure(exit) ? failureType(exit.cause) : undefined
          finish(t, span, recorder, observed, errorType, span.status.startTime, clock.currentTimeNanosUnsafe(), exit)
        }),
      ),
    )
  })
}
