/**
 * OpenTelemetry's API (`@opentelemetry/api`) under the client's Effect telemetry: an Effect `Tracer` whose spans
 * are OpenTelemetry spans of the caller's `Tracer`, and a recorder onto the caller's `Meter`. Both are structural:
 * nothing of `@opentelemetry/api` is imported, so nothing is loaded unless the caller passes its own tracer or meter.
 */
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Tracer from "effect/Tracer"
import type { OtelAttributeValue, OtelMeter, OtelSpan, OtelTracer, TelemetryOptions } from "../Telemetry.ts"
import { Attr, type Attributes, type AttributeValue, type MetricKey, Metrics } from "./genAi.ts"
import { CurrentGenAiRecorder, type GenAiRecorder } from "./telemetry.ts"

/** OpenTelemetry's `SpanKind` values. */
const SPAN_KIND: Record<Tracer.SpanKind, number> = { internal: 0, server: 1, client: 2, producer: 3, consumer: 4 }
/** OpenTelemetry's `SpanStatusCode.ERROR`. */
const STATUS_ERROR = 2

/** Epoch nanoseconds as OpenTelemetry's `HrTime`. */
const hrTime = (nanos: bigint): [number, number] => [Number(nanos / 1_000_000_000n), Number(nanos % 1_000_000_000n)]

const isAttributeValue = (u: unknown): u is AttributeValue =>
  typeof u === "string" ||
  typeof u === "number" ||
  typeof u === "boolean" ||
  (Array.isArray(u) && u.every((x) => typeof x === "string"))

type SpanOptions = ConstructorParameters<typeof Tracer.NativeSpan>[0]

/**
 * An Effect span that is also an OpenTelemetry span: attributes and the end go to both, and its ids are the
 * OpenTelemetry span's (so that a `traceparent` sent under it names it).
 */
class BridgeSpan extends Tracer.NativeSpan {
  private readonly otel: OtelSpan
  private errorType: string | undefined

  constructor(options: SpanOptions, otel: OtelSpan) {
    super(options)
    this.otel = otel
  }

  override get traceId(): string {
    return this.otel.spanContext().traceId
  }

  override get spanId(): string {
    return this.otel.spanContext().spanId
  }

  override attribute(key: string, value: unknown): void {
    if (this.status._tag === "Ended") return
    super.attribute(key, value)
    if (key === Attr.errorType && typeof value === "string") this.errorType = value
    if (isAttributeValue(value)) this.otel.setAttribute(key, value as OtelAttributeValue)
  }

  override end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    if (this.status._tag === "Ended") return
    super.end(endTime, exit)
    if (this.errorType !== undefined || Exit.isFailure(exit)) {
      this.otel.setStatus({ code: STATUS_ERROR, message: this.errorType ?? "failure" })
    }
    this.otel.end(hrTime(endTime))
  }
}

/**
 * A span under a bridged one (an HTTP attempt): not sent to OpenTelemetry, whose parent would be its active context
 * rather than the bridged span; it carries the bridged span's ids, so that a `traceparent` sent under it names that.
 */
class InnerSpan extends Tracer.NativeSpan {
  private readonly outer: Tracer.AnySpan

  constructor(options: SpanOptions, outer: Tracer.AnySpan) {
    super(options)
    this.outer = outer
  }

  override get traceId(): string {
    return this.outer.traceId
  }

  override get spanId(): string {
    return this.outer.spanId
  }
}

/**
 * An Effect `Tracer` making its spans with an OpenTelemetry `Tracer` (their parent: OpenTelemetry's active context);
 * the spans under them stay in Effect.
 */
export const bridgeTracer = (tracer: OtelTracer): Tracer.Tracer =>
  Tracer.make({
    span: (options) => {
      const parent = options.parent
      if (parent._tag === "Some" && (parent.value instanceof BridgeSpan || parent.value instanceof InnerSpan)) {
        return new InnerSpan(options, parent.value)
      }
      return new BridgeSpan(
        options,
        tracer.startSpan(options.name, { kind: SPAN_KIND[options.kind], startTime: hrTime(options.startTime) }),
      )
    },
  })

/** A recorder onto an OpenTelemetry `Meter`: one histogram per metric, with the conventions' unit and buckets. */
export const meterRecorder = (meter: OtelMeter): GenAiRecorder => {
  const histograms = {} as Record<MetricKey, ReturnType<OtelMeter["createHistogram"]>>
  for (const key of Object.keys(Metrics) as Array<MetricKey>) {
    const spec = Metrics[key]
    histograms[key] = meter.createHistogram(spec.name, {
      description: spec.description,
      unit: spec.unit,
      advice: { explicitBucketBoundaries: [...spec.boundaries] },
    })
  }
  return {
    histogram: (key: MetricKey, attributes: Attributes) => {
      const histogram = histograms[key]
      const attrs = attributes as Readonly<Record<string, OtelAttributeValue>>
      return (value: number) => histogram.record(value, attrs)
    },
  }
}

const isEffectTracer = (t: OtelTracer | Tracer.Tracer): t is Tracer.Tracer =>
  typeof (t as Partial<Tracer.Tracer>).span === "function"

/** The layer that sends a client's telemetry where `options` say (nothing: Effect's tracer and `Metric`). */
export const telemetryLayer = (options: TelemetryOptions | undefined): Layer.Layer<never> => {
  const layers: Array<Layer.Layer<never>> = []
  const tracer = options?.tracer
  if (tracer !== undefined) {
    layers.push(Layer.succeed(Tracer.Tracer, isEffectTracer(tracer) ? tracer : bridgeTracer(tracer)))
  }
  if (options?.meter !== undefined) layers.push(Layer.succeed(CurrentGenAiRecorder, meterRecorder(options.meter)))
  return layers.length === 0 ? Layer.empty : Layer.mergeAll(...(layers as [Layer.Layer<never>]))
}
