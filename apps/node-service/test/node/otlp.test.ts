// The Node sample with OTEL_EXPORTER_OTLP_ENDPOINT: its client's GenAI spans and metrics arrive at a local OTLP/HTTP
// receiver (a node:http server on a free port taking /v1/traces and /v1/metrics as JSON).
import assert from "node:assert/strict"
import { once } from "node:events"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { optionsFromEnv } from "@friendli-stream/sample-service"
import { post, readSse, textOf } from "@friendli-stream/sample-service/suite"
import { describe, it } from "@friendli-stream/test-harness"
import { startApp } from "../../main.ts"

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: number | string
  readonly arrayValue?: { readonly values: ReadonlyArray<OtlpValue> }
}
interface OtlpAttribute {
  readonly key: string
  readonly value: OtlpValue
}
interface OtlpSpan {
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<OtlpAttribute>
}
interface OtlpMetric {
  readonly name: string
  readonly unit: string
  readonly histogram?: {
    readonly dataPoints: ReadonlyArray<{
      readonly explicitBounds: ReadonlyArray<number>
      readonly count: number | string
    }>
  }
}

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const parts: Array<Buffer> = []
  for await (const part of req) parts.push(part as Buffer)
  return JSON.parse(Buffer.concat(parts).toString("utf8"))
}

/** A local OTLP/HTTP receiver: what arrived at /v1/traces and /v1/metrics, and a wait for a condition on it. */
const receiver = async () => {
  const spans: Array<OtlpSpan> = []
  const metrics: Array<OtlpMetric> = []
  const waiters: Array<() => void> = []
  const server = createServer(async (req, res) => {
    const body = (await readJson(req)) as {
      resourceSpans?: Array<{ scopeSpans: Array<{ spans: Array<OtlpSpan> }> }>
      resourceMetrics?: Array<{ scopeMetrics: Array<{ metrics: Array<OtlpMetric> }> }>
    }
    if (req.url === "/v1/traces")
      spans.push(...(body.resourceSpans ?? []).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))
    if (req.url === "/v1/metrics") {
      metrics.push(...(body.resourceMetrics ?? []).flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)))
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}")
    for (const w of waiters.splice(0)) w()
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((resolve) => waiters.push(resolve))
  }
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    metrics,
    until,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, "close")
    },
  }
}

const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value

describe("the Node sample's OpenTelemetry export", () => {
  it("reads OTEL_EXPORTER_OTLP_ENDPOINT from the environment, and nothing when it is unset or empty", () => {
    const env = (vars: Record<string, string>) => (name: string) => vars[name]
    assert.equal(optionsFromEnv(env({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).otlpEndpoint, "http://c:4318")
    assert.equal(optionsFromEnv(env({})).otlpEndpoint, undefined)
    assert.equal(optionsFromEnv(env({ OTEL_EXPORTER_OTLP_ENDPOINT: "" })).otlpEndpoint, undefined)
  })

  it("sends a stream's GenAI span and metrics to the OTLP/HTTP endpoint", async () => {
    const otlp = await receiver()
    const app = await startApp({ port: 0, mockFaults: "delay:5", otlpEndpoint: otlp.url, model: "otel-model" })
    try {
      const res = await post(app.url, { prompt: "Once upon a time", max_tokens: 8 })
      assert.equal(res.status, 200)
      const { events } = await readSse(res)
      assert.ok(textOf(events).length > 0)
    } finally {
      // closing the app sends what is buffered
      await app.close()
    }
    const genAi = () => otlp.spans.filter((s) => attr(s, "gen_ai.operation.name") !== undefined)
    const names = () => new Set(otlp.metrics.map((m) => m.name))
    await otlp.until(() => genAi().length > 0 && names().has("gen_ai.client.operation.duration"))
    await otlp.close()
    const span = genAi()[0]!
    assert.equal(span.name, "text_completion otel-model")
    assert.equal(span.kind, 3, "OTLP's SPAN_KIND_CLIENT")
    assert.equal(attr(span, "gen_ai.provider.name")?.stringValue, "friendli")
    assert.equal(attr(span, "gen_ai.request.model")?.stringValue, "otel-model")
    for (const name of [
      "gen_ai.client.operation.duration",
      "gen_ai.client.operation.time_to_first_chunk",
      "gen_ai.client.operation.time_per_output_chunk",
      "gen_ai.client.token.usage",
    ]) {
      const metric = otlp.metrics.find((m) => m.name === name)
      assert.ok(metric !== undefined, `${name} arrived`)
      assert.equal(metric.unit, name === "gen_ai.client.token.usage" ? "{token}" : "s", name)
      assert.ok(metric.histogram !== undefined, `${name} is a histogram`)
    }
    const duration = otlp.metrics.find((m) => m.name === "gen_ai.client.operation.duration")!
    assert.deepEqual(
      duration.histogram!.dataPoints[0]!.explicitBounds,
      [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92],
    )
  })
})
