import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as Tracer from "effect/Tracer"
import { FriendliClient, type Telemetry } from "../src/index.ts"
import {
  type Answer,
  BASE,
  chatChunkWire,
  completionChunkWire as chunk,
  fakeServer,
  fakeServerClient,
  json,
  sse,
} from "./client-support.ts"

const SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]
const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }
const completionStream = [chunk("Hel"), chunk("lo"), chunk("", "stop"), chunk("", "none", usage)]
const request = { model: "m", prompt: "Hello", max_tokens: 5 }

/** Runs `f` on the Effect client over a fake server, with an in-memory tracer and a fresh metric registry. */
const runEffect = <A, E>(
  answers: ReadonlyArray<Answer>,
  f: (client: FriendliClient.FriendliClient) => Stream.Stream<A, E> | Effect.Effect<A, E>,
  take?: number,
) => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    },
  })
  return Effect.runPromise(
    Effect.gen(function* () {
      const client = yield* FriendliClient.FriendliClient
      const run = f(client)
      const result = yield* Effect.result(
        Stream.isStream(run)
          ? Effect.asVoid(Stream.runCollect(take === undefined ? run : Stream.take(run, take)))
          : Effect.asVoid(run as Effect.Effect<A, E>),
      )
      const snapshot = yield* Metric.snapshot
      return {
        /** The GenAI spans (effect/http makes one more per attempt, under them). */
        spans: spans.filter((s) => s.attributes.has("gen_ai.operation.name")),
        all: spans,
        snapshot,
        error: Result.isFailure(result) ? result.failure : undefined,
      }
    }).pipe(
      Effect.provide(FriendliClient.layer({ token: "t", baseURL: BASE, maxRetries: 0 })),
      Effect.provide(fakeServer(...answers).layer),
      Effect.provideService(Tracer.Tracer, tracer),
      Effect.provideService(Metric.MetricRegistry, new Map()),
    ),
  )
}

const histogramsNamed = (snapshot: ReadonlyArray<Metric.Metric.Snapshot>, name: string) =>
  snapshot.filter((s) => s.id === name && s.type === "Histogram") as Array<
    Metric.Metric.Snapshot & { readonly state: Metric.HistogramState }
  >

describe("telemetry by the GenAI conventions (Effect client)", () => {
  it("makes one client span '{operation} {model}' with the request and response attributes of a stream", async () => {
    const { spans, all, error } = await runEffect([sse(completionStream)], (c) => c.completions.stream(request))
    assert.equal(error, undefined)
    assert.equal(spans.length, 1)
    const span = spans[0]!
    const http = all.filter((s) => s !== span)
    assert.ok(
      http.length > 0 && http.every((s) => s.parent._tag === "Some" && s.parent.value === span),
      "the HTTP attempt is a child",
    )
    assert.equal(span.name, "text_completion m")
    assert.equal(span.kind, "client")
    const attrs = Object.fromEntries(span.attributes)
    const ttfc = attrs["gen_ai.response.time_to_first_chunk"]
    assert.equal(typeof ttfc, "number")
    assert.deepEqual(
      { ...attrs, "gen_ai.response.time_to_first_chunk": 0 },
      {
        "gen_ai.operation.name": "text_completion",
        "gen_ai.provider.name": "friendli",
        "gen_ai.request.model": "m",
        "server.address": "fake.test",
        "server.port": 80,
        "gen_ai.response.id": "cmpl-1",
        "gen_ai.response.model": "m",
        "gen_ai.response.finish_reasons": ["stop"],
        "gen_ai.usage.input_tokens": 3,
        "gen_ai.usage.output_tokens": 2,
        "gen_ai.response.time_to_first_chunk": 0,
      },
    )
    assert.equal(span.status._tag, "Ended")
  })

  it("records duration, token usage, time to first chunk and time per output chunk with the conventions' units and buckets", async () => {
    const { snapshot } = await runEffect([sse(completionStream)], (c) => c.completions.stream(request))
    const names = [...new Set(snapshot.map((s) => s.id))].sort()
    assert.deepEqual(names, [
      "gen_ai.client.operation.duration",
      "gen_ai.client.operation.time_per_output_chunk",
      "gen_ai.client.operation.time_to_first_chunk",
      "gen_ai.client.token.usage",
    ])
    const common = {
      "gen_ai.operation.name": "text_completion",
      "gen_ai.provider.name": "friendli",
      "gen_ai.request.model": "m",
      "gen_ai.response.model": "m",
      "server.address": "fake.test",
      "server.port": "80",
    }
    const [duration] = histogramsNamed(snapshot, "gen_ai.client.operation.duration")
    assert.deepEqual(duration!.attributes, { unit: "s", ...common })
    assert.deepEqual(
      duration!.state.buckets.map(([b]) => b).filter(Number.isFinite),
      SECONDS,
      "the conventions' seconds boundaries",
    )
    assert.equal(duration!.state.count, 1)
    const tokens = histogramsNamed(snapshot, "gen_ai.client.token.usage")
    assert.deepEqual(tokens.map((t) => [t.attributes?.["gen_ai.token.type"], t.attributes?.unit, t.state.sum]).sort(), [
      ["input", "{token}", 3],
      ["output", "{token}", 2],
    ])
    assert.deepEqual(tokens[0]!.state.buckets.map(([b]) => b).filter(Number.isFinite), TOKENS)
    const [ttfc] = histogramsNamed(snapshot, "gen_ai.client.operation.time_to_first_chunk")
    assert.equal(ttfc!.state.count, 1)
    assert.equal(ttfc!.attributes?.unit, "s")
    const [perChunk] = histogramsNamed(snapshot, "gen_ai.client.operation.time_per_output_chunk")
    assert.equal(perChunk!.state.count, completionStream.length - 1, "one value per chunk after the first")
    assert.ok(duration!.state.sum >= ttfc!.state.sum, "the operation lasts at least until its first chunk")
    console.log(`measured: fake-server stream duration ${duration!.state.sum}s, ttfc ${ttfc!.state.sum}s`)
  })

  it("reports reasoning tokens apart, as gen_ai.usage.reasoning.output_tokens", async () => {
    const final = {
      ...chatChunkWire({}, null),
      choices: [],
      usage: {
        prompt_tokens: 4,
        completion_tokens: 9,
        total_tokens: 13,
        completion_tokens_details: { reasoning_tokens: 6 },
      },
    }
    const { spans } = await runEffect(
      [
        sse([
          chatChunkWire({ role: "assistant", reasoning_content: "hm" }),
          chatChunkWire({ content: "ok" }, "stop"),
          final,
        ]),
      ],
      (c) => c.chat.stream({ model: "meta-llama-3.1-8b-instruct", messages: [{ role: "user", content: "hi" }] }),
    )
    const attrs = Object.fromEntries(spans[0]!.attributes)
    assert.equal(spans[0]!.name, "chat meta-llama-3.1-8b-instruct")
    assert.equal(attrs["gen_ai.usage.output_tokens"], 9)
    assert.equal(attrs["gen_ai.usage.reasoning.output_tokens"], 6)
  })

  it("ends a failed request's span with error.type (the error's tag) and records the duration with it", async () => {
    const { spans, snapshot, error } = await runEffect(
      [json(429, { error: { message: "slow down", type: "rate_limit" } })],
      (c) => c.completions.stream(request),
    )
    assert.equal((error as { _tag?: string } | undefined)?._tag, "RateLimitError")
    assert.equal(spans[0]!.attributes.get("error.type"), "RateLimitError")
    const status = spans[0]!.status
    assert.ok(status._tag === "Ended" && status.exit._tag === "Failure")
    const [duration] = histogramsNamed(snapshot, "gen_ai.client.operation.duration")
    assert.equal(duration!.attributes?.["error.type"], "RateLimitError")
    assert.equal(histogramsNamed(snapshot, "gen_ai.client.token.usage").length, 0, "no usage, no token metric")
  })

  it("reports a stream cut before its end with error.type StreamTruncated, keeping what arrived", async () => {
    const { spans, snapshot, error } = await runEffect([sse([chunk("Hel"), chunk("lo")], false)], (c) =>
      c.completions.stream(request),
    )
    assert.equal((error as { _tag?: string } | undefined)?._tag, "StreamTruncated")
    assert.equal(spans[0]!.attributes.get("error.type"), "StreamTruncated")
    assert.equal(spans[0]!.attributes.get("gen_ai.response.id"), "cmpl-1")
    assert.equal(histogramsNamed(snapshot, "gen_ai.client.operation.time_to_first_chunk")[0]!.state.count, 1)
  })

  it("reports a stream its consumer stops early with error.type cancelled", async () => {
    const { spans, error } = await runEffect([sse(completionStream)], (c) => c.completions.stream(request), 1)
    assert.equal(error, undefined)
    assert.equal(spans[0]!.status._tag, "Ended")
    assert.equal(spans[0]!.attributes.get("error.type"), "cancelled")
  })

  it("ends the span of a create() interrupted before its answer with error.type cancelled", async () => {
    const never: Answer = () => new Promise<Response>(() => {})
    const { spans, snapshot, error } = await runEffect([never], (c) =>
      Effect.timeoutOption(c.completions.create(request), "20 millis"),
    )
    assert.equal(error, undefined)
    assert.equal(spans[0]!.status._tag, "Ended")
    assert.equal(spans[0]!.attributes.get("error.type"), "cancelled")
    assert.equal(
      histogramsNamed(snapshot, "gen_ai.client.operation.duration")[0]!.attributes?.["error.type"],
      "cancelled",
    )
  })

  it("reports create() with its span, duration and tokens, and no per-chunk metrics", async () => {
    const answer = {
      id: "cmpl-9",
      object: "text_completion",
      model: "m-2",
      created: 1_700_000_000,
      choices: [{ index: 0, seed: 1, tokens: [1], text: "Hello", finish_reason: "length" }],
      usage,
    }
    const { spans, snapshot, error } = await runEffect([json(200, answer)], (c) => c.completions.create(request))
    assert.equal(error, undefined, String(error))
    const attrs = Object.fromEntries(spans[0]!.attributes)
    assert.equal(attrs["gen_ai.response.id"], "cmpl-9")
    assert.equal(attrs["gen_ai.response.model"], "m-2")
    assert.deepEqual(attrs["gen_ai.response.finish_reasons"], ["length"])
    assert.deepEqual([...new Set(snapshot.map((s) => s.id))].sort(), [
      "gen_ai.client.operation.duration",
      "gen_ai.client.token.usage",
    ])
  })
})

/** An in-memory OpenTelemetry tracer and meter, shaped as `@opentelemetry/api`'s. */
const memoryOtel = () => {
  const spans: Array<{
    name: string
    kind: number | undefined
    attributes: Record<string, unknown>
    status: { code: number; message?: string } | undefined
    ended: boolean
  }> = []
  const histograms: Array<{ name: string; unit: string | undefined; boundaries: ReadonlyArray<number> | undefined }> =
    []
  const points: Array<{ name: string; value: number; attributes: Record<string, unknown> }> = []
  const tracer: Telemetry.OtelTracer = {
    startSpan: (name, options) => {
      const span = { name, kind: options?.kind, attributes: {}, status: undefined, ended: false } as (typeof spans)[0]
      spans.push(span)
      return {
        setAttribute: (k, v) => {
          span.attributes[k] = v
        },
        setStatus: (s) => {
          span.status = s
        },
        end: () => {
          span.ended = true
        },
        spanContext: () => ({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: `b7ad6b71692033${spans.length}0` }),
      }
    },
  }
  const meter: Telemetry.OtelMeter = {
    createHistogram: (name, options) => {
      histograms.push({ name, unit: options?.unit, boundaries: options?.advice?.explicitBucketBoundaries })
      return { record: (value, attributes) => points.push({ name, value, attributes: { ...attributes } }) }
    },
  }
  return { spans, histograms, points, tracer, meter }
}

describe("telemetry by the GenAI conventions (Promise client, OpenTelemetry API)", () => {
  it("reports a stream to an OpenTelemetry tracer and meter with the conventions' names, units and buckets", async () => {
    const otel = memoryOtel()
    const { client, seen } = fakeServerClient([sse(completionStream)], {
      telemetry: { tracer: otel.tracer, meter: otel.meter },
    })
    for await (const _ of client.completions.stream(request)) {
      // read to the end
    }
    await client.close()
    assert.deepEqual(otel.histograms.map((h) => [h.name, h.unit]).sort(), [
      ["gen_ai.client.operation.duration", "s"],
      ["gen_ai.client.operation.time_per_output_chunk", "s"],
      ["gen_ai.client.operation.time_to_first_chunk", "s"],
      ["gen_ai.client.token.usage", "{token}"],
    ])
    for (const h of otel.histograms) assert.deepEqual(h.boundaries, h.unit === "s" ? SECONDS : TOKENS, h.name)
    assert.equal(otel.spans.length, 1, "the GenAI span alone goes to OpenTelemetry (the HTTP attempt stays in Effect)")
    const span = otel.spans[0]!
    assert.equal(
      seen[0]!.headers.traceparent,
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203310-01",
      "the request's traceparent names the OpenTelemetry span",
    )
    assert.equal(span.name, "text_completion m")
    assert.equal(span.kind, 2, "SpanKind.CLIENT")
    assert.equal(span.ended, true)
    assert.equal(span.status, undefined)
    assert.equal(span.attributes["gen_ai.provider.name"], "friendli")
    assert.equal(span.attributes["gen_ai.usage.output_tokens"], 2)
    const byName = (name: string) => otel.points.filter((p) => p.name === name)
    assert.equal(byName("gen_ai.client.operation.duration").length, 1)
    assert.equal(byName("gen_ai.client.operation.time_to_first_chunk").length, 1)
    assert.equal(byName("gen_ai.client.operation.time_per_output_chunk").length, completionStream.length - 1)
    assert.deepEqual(
      byName("gen_ai.client.token.usage").map((p) => [p.attributes["gen_ai.token.type"], p.value]),
      [
        ["input", 3],
        ["output", 2],
      ],
    )
    assert.equal(byName("gen_ai.client.operation.duration")[0]!.attributes["server.port"], 80)
  })

  it("sets the OpenTelemetry span's error status and error.type when a stream fails", async () => {
    const otel = memoryOtel()
    const { client } = fakeServerClient([json(429, { error: { message: "slow down" } })], {
      maxRetries: 0,
      telemetry: { tracer: otel.tracer, meter: otel.meter },
    })
    await assert.rejects(client.completions.stream(request).finalCompletion(), { _tag: "RateLimitError" })
    await client.close()
    assert.equal(otel.spans[0]!.status?.code, 2, "SpanStatusCode.ERROR")
    assert.equal(otel.spans[0]!.attributes["error.type"], "RateLimitError")
    const duration = otel.points.find((p) => p.name === "gen_ai.client.operation.duration")
    assert.equal(duration?.attributes["error.type"], "RateLimitError")
  })
})
