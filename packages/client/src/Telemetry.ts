/**
 * OpenTelemetry by the GenAI semantic conventions. Every streamed or non-streamed generation request (chat,
 * completions, responses, messages, transcriptions) makes one client span `{gen_ai.operation.name}
 * {gen_ai.request.model}` with `gen_ai.operation.name`, `gen_ai.provider.name` (`friendli`: not among the
 * conventions' well-known providers), `gen_ai.request.model`, `server.address`/`server.port`, and at its end
 * `gen_ai.response.id`/`model`/`finish_reasons`, `gen_ai.usage.input_tokens`/`output_tokens`,
 * `gen_ai.usage.reasoning.output_tokens` (reasoning tokens apart; they are part of the output tokens),
 * `gen_ai.response.time_to_first_chunk` (streams) and `error.type` (the error's `_tag`, `cancelled` when the caller
 * stopped early). It records the histograms `gen_ai.client.operation.duration` (`s`), `gen_ai.client.token.usage`
 * (`{token}`, `gen_ai.token.type` `input`/`output`), and for streams `gen_ai.client.operation.time_to_first_chunk`
 * and `gen_ai.client.operation.time_per_output_chunk` (`s`; items decoded from one read arrive together: the first
 * of them carries the wait, the rest 0), with the conventions' explicit bucket boundaries.
 *
 * The Effect client reports through Effect's tracer (so `@effect/opentelemetry` or `effect/observability`'s OTLP
 * exporter pick the spans up) and Effect's `Metric` (metric units in the `unit` attribute, as Effect's OTLP exporter
 * reads them). The Promise client does the same, or, with the `telemetry` option, reports to an OpenTelemetry
 * `Tracer` and `Meter` of `@opentelemetry/api` (typed structurally: the client loads nothing of OpenTelemetry).
 *
 * @example
 * import { metrics, trace } from "@opentelemetry/api"
 * const client = createClient({ telemetry: { tracer: trace.getTracer("app"), meter: metrics.getMeter("app") } })
 *
 * @since 0.3.0
 */
import type * as Layer from "effect/Layer"
import type * as EffectTracer from "effect/Tracer"
import { Attr, Metrics, PROVIDER_NAME } from "./internal/genAi.ts"
import { telemetryLayer } from "./internal/otel.ts"

/**
 * An attribute value as OpenTelemetry takes it.
 *
 * @since 0.3.0
 */
export type OtelAttributeValue = string | number | boolean | Array<string>

/**
 * The part of an OpenTelemetry `Span` (`@opentelemetry/api`) the client uses.
 *
 * @since 0.3.0
 */
export interface OtelSpan {
  /** Sets one attribute. */
  setAttribute(key: string, value: OtelAttributeValue): unknown
  /** Sets the status (`code` 2: error). */
  setStatus(status: { code: number; message?: string }): unknown
  /** Ends the span at `endTime` (`[seconds, nanoseconds]` since the epoch). */
  end(endTime?: [number, number]): void
  /** The span's trace and span ids. */
  spanContext(): { readonly traceId: string; readonly spanId: string }
}

/**
 * The part of an OpenTelemetry `Tracer` (`trace.getTracer(name)`) the client uses.
 *
 * @since 0.3.0
 */
export interface OtelTracer {
  /** Starts a span (kind 2: client) under OpenTelemetry's active context. */
  startSpan(name: string, options?: { kind?: number; startTime?: [number, number] }): OtelSpan
}

/**
 * The part of an OpenTelemetry `Histogram` the client uses.
 *
 * @since 0.3.0
 */
export interface OtelHistogram {
  /** Records one value with its attributes. */
  record(value: number, attributes?: Readonly<Record<string, OtelAttributeValue>>): void
}

/**
 * The part of an OpenTelemetry `Meter` (`metrics.getMeter(name)`) the client uses.
 *
 * @since 0.3.0
 */
export interface OtelMeter {
  /** Creates a histogram with its unit and the advised bucket boundaries. */
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: Array<number> } },
  ): OtelHistogram
}

/**
 * Where a client reports its spans and metrics. Without it, to Effect's tracer and `Metric` of the runtime the
 * requests run on.
 *
 * @since 0.3.0
 */
export interface TelemetryOptions {
  /** An OpenTelemetry `Tracer`, or an Effect `Tracer` (e.g. `effect/observability`'s OTLP tracer). */
  readonly tracer?: OtelTracer | EffectTracer.Tracer | undefined
  /** An OpenTelemetry `Meter`; without it, Effect's `Metric` (the process's default metric registry). */
  readonly meter?: OtelMeter | undefined
}

/**
 * The GenAI conventions' attribute names the client reports.
 *
 * @since 0.3.0
 */
export const attributes: typeof Attr = Attr

/**
 * The GenAI conventions' client metrics the client records: name, unit, description and bucket boundaries.
 *
 * @since 0.3.0
 */
export const metrics: typeof Metrics = Metrics

/**
 * The `gen_ai.provider.name` the client reports: `friendli`.
 *
 * @since 0.3.0
 */
export const providerName: string = PROVIDER_NAME

/**
 * A layer that sends the Effect client's telemetry to an OpenTelemetry tracer and meter (for programs that use
 * `@opentelemetry/api` without `@effect/opentelemetry`).
 *
 * @since 0.3.0
 */
export const layer = (options: TelemetryOptions): Layer.Layer<never> => telemetryLayer(options)
