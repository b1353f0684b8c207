// The client's telemetry through the real OpenTelemetry SDK (api 1.9, sdk-trace-base and sdk-metrics 2.12): the
// Promise client's `telemetry` option, and the Effect client under @effect/opentelemetry's NodeSdk. An in-memory span
// exporter and a metric reader see the GenAI conventions' names, units and buckets.
import assert from "node:assert/strict"
import * as OtelMetrics from "@effect/opentelemetry/OtelMetrics"
import * as OtelTracer from "@effect/opentelemetry/OtelTracer"
import * as Resource from "@effect/opentelemetry/Resource"
import { describe, it } from "@friendli-stream/test-harness"
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import { DataPointType, type HistogramMetricData, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics"
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { FriendliClient } from "../../src/index.ts"
import { BASE, completionChunkWire as chunk, fakeServer, fakeServerClient, json, sse } from "../client-support.ts"

const SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]

class TestReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const sdk = () => {
  const spans = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
  const reader = new TestReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const telemetry = { tracer: tracerProvider.getTracer("test"), meter: meterProvider.getMeter("test") }
  const histograms = async () => {
    const { resourceMetrics } = await reader.collect()
    return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics) as Array<HistogramMetricData>
  }
  return { spans, telemetry, histograms }
}

const request = { model: "m", prompt: "Hello", max_tokens: 5 }
const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }

describe("telemetry through the OpenTelemetry SDK", () => {
  it("exports a stream's client span and the four histograms with the conventions' names, units and buckets", async () => {
    const otel = sdk()
    const { client, seen } = fakeServerClient(
      [sse([chunk("Hel"), chunk("lo"), chunk("", "stop"), chunk("", "none", usage)])],
      { telemetry: otel.telemetry },
    )
    const text: Array<string> = []
    for await (const c of client.completions.stream(request)) text.push(c.choices[0]?.text ?? "")
    await client.close()
    assert.equal(text.join(""), "Hello")

    const finished = otel.spans.getFinishedSpans()
    assert.equal(finished.length, 1, "the GenAI span alone (the HTTP attempt stays in Effect)")
    const span = finished[0]!
    const { traceId, spanId } = span.spanContext()
    assert.equal(seen[0]!.headers.traceparent, `00-${traceId}-${spanId}-01`, "the request's traceparent names it")
    assert.equal(span.name, "text_completion m")
    assert.equal(span.kind, SpanKind.CLIENT)
    assert.equal(span.status.code, SpanStatusCode.UNSET)
    assert.equal(span.attributes["gen_ai.provider.name"], "friendli")
    assert.equal(span.attributes["server.address"], new URL(BASE).hostname)
    assert.deepEqual(span.attributes["gen_ai.response.finish_reasons"], ["stop"])
    assert.equal(span.attributes["gen_ai.usage.input_tokens"], 3)

    const metrics = await otel.histograms()
    assert.deepEqual(metrics.map((m) => [m.descriptor.name, m.descriptor.unit, m.dataPointType]).sort(), [
      ["gen_ai.client.operation.duration", "s", DataPointType.HISTOGRAM],
      ["gen_ai.client.operation.time_per_output_chunk", "s", DataPointType.HISTOGRAM],
      ["gen_ai.client.operation.time_to_first_chunk", "s", DataPointType.HISTOGRAM],
      ["gen_ai.client.token.usage", "{token}", DataPointType.HISTOGRAM],
    ])
    for (const m of metrics) {
      const boundaries = m.dataPoints[0]!.value.buckets.boundaries
      assert.deepEqual(boundaries, m.descriptor.unit === "s" ? SECONDS : TOKENS, m.descriptor.name)
    }
    const tokens = metrics.find((m) => m.descriptor.name === "gen_ai.client.token.usage")!
    assert.deepEqual(tokens.dataPoints.map((p) => [p.attributes["gen_ai.token.type"], p.value.sum]).sort(), [
      ["input", 3],
      ["output", 2],
    ])
  })

  it("exports a failed request's span with error status and error.type, and its duration with error.type", async () => {
    const otel = sdk()
    const { client } = fakeServerClient([json(500, { error: { message: "down" } })], {
      maxRetries: 0,
      telemetry: otel.telemetry,
    })
    await assert.rejects(client.completions.create(request), { _tag: "ServerError" })
    await client.close()
    const span = otel.spans.getFinishedSpans().find((s) => s.attributes["gen_ai.operation.name"] !== undefined)!
    assert.equal(span.status.code, SpanStatusCode.ERROR)
    assert.equal(span.attributes["error.type"], "ServerError")
    const duration = (await otel.histograms()).find((m) => m.descriptor.name === "gen_ai.client.operation.duration")!
    assert.equal(duration.dataPoints[0]!.attributes["error.type"], "ServerError")
  })
})

describe("the Effect client's telemetry through @effect/opentelemetry", () => {
  it("exports the client span and the histograms with the conventions' names and units through its tracer and metrics", async () => {
    const spans = new InMemorySpanExporter()
    const reader = new TestReader()
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
    const sdkLayer = Layer.mergeAll(
      OtelTracer.layer.pipe(Layer.provide(Layer.succeed(OtelTracer.OtelTracerProvider, provider))),
      OtelMetrics.layer(() => reader),
    ).pipe(Layer.provide(Resource.layer({ serviceName: "test" })))
    const server = fakeServer(sse([chunk("Hel"), chunk("lo"), chunk("", "stop"), chunk("", "none", usage)]))
    // the reader is read before the layer (and the reader with it) shuts down
    const metrics = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* FriendliClient.FriendliClient
        yield* Stream.runDrain(client.completions.stream(request))
        const { resourceMetrics } = yield* Effect.promise(() => reader.collect())
        return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)
      }).pipe(
        Effect.provide(FriendliClient.layer({ token: "t", baseURL: BASE })),
        Effect.provide(server.layer),
        Effect.provide(sdkLayer),
      ),
    )
    const span = spans.getFinishedSpans().find((s) => s.attributes["gen_ai.operation.name"] !== undefined)
    assert.ok(span !== undefined, "the GenAI span was exported")
    assert.equal(span.name, "text_completion m")
    assert.equal(span.kind, SpanKind.CLIENT)
    assert.equal(span.attributes["gen_ai.usage.output_tokens"], 2)
    const units = new Map(metrics.map((m) => [m.descriptor.name, m.descriptor.unit]))
    assert.equal(units.get("gen_ai.client.operation.duration"), "s")
    assert.equal(units.get("gen_ai.client.operation.time_to_first_chunk"), "s")
    assert.equal(units.get("gen_ai.client.operation.time_per_output_chunk"), "s")
    assert.equal(units.get("gen_ai.client.token.usage"), "{token}")
  })
})
