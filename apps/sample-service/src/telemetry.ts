/**
 * The sample's OpenTelemetry export: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, the client's GenAI spans and metrics
 * (`@friendli-stream/client`'s `Telemetry`) go to that OTLP/HTTP endpoint (`/v1/traces`, `/v1/metrics`, as JSON)
 * through `effect/observability`'s OTLP exporter, on `fetch`, so that every runtime sends them alike.
 */
import type { Telemetry } from "@friendli-stream/client"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Otlp from "effect/observability/Otlp"
import * as OtlpExporter from "effect/observability/OtlpExporter"
import * as Tracer from "effect/Tracer"

/**
 * A running OTLP export: the client's `telemetry` option, and how to end it.
 *
 * @since 0.3.0
 */
export interface OtlpExport {
  /** Pass to the client: its spans go to the OTLP tracer; its metrics (Effect's) are read by the OTLP metrics. */
  readonly telemetry: Telemetry.TelemetryOptions
  /** Sends what is buffered now. */
  flush(): Promise<void>
  /** Sends what is buffered and stops. */
  close(): Promise<void>
}

/**
 * Starts exporting to an OTLP/HTTP endpoint (`http://collector:4318`, without `/v1/...`) as `serviceName`. Traces
 * and metrics are sent every `intervalMs` (default 5000) and at `close()`.
 *
 * @since 0.3.0
 */
export const otlpExport = async (endpoint: string, serviceName: string, intervalMs = 5000): Promise<OtlpExport> => {
  const runtime = ManagedRuntime.make(
    Otlp.layerJson({
      baseUrl: endpoint,
      resource: { serviceName },
      tracerExportInterval: intervalMs,
      metricsExportInterval: intervalMs,
    }).pipe(Layer.provide(FetchHttpClient.layer)),
  )
  const tracer = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* Tracer.Tracer
    }),
  )
  const flush = () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const flusher = yield* OtlpExporter.Flusher
        yield* flusher.flush
      }),
    )
  return {
    telemetry: { tracer },
    flush,
    close: async () => {
      await flush()
      await runtime.dispose()
    },
  }
}
