import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { readConfig } from "../src/sync/config.ts"
import { derive } from "../src/sync/derive.ts"
import { type Overlay, readOverlay } from "../src/sync/overlay.ts"
import { pathSegments } from "../src/sync/pointer.ts"

const upstream = () => ({
  openapi: "3.1.0",
  info: { title: "Upstream", version: "1.0.0" },
  paths: {
    "/serverless/v1/chat/completions": {
      post: {
        operationId: "chat",
        "x-mint": { metadata: {} },
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Body" } } } },
        responses: { "200": { description: "ok", content: { "application/json": { examples: { a: {} } } } } },
      },
    },
    "/serverless/v1/chat/completions#stream": {
      post: {
        operationId: "chatStream",
        responses: {
          "200": {
            description: "ok",
            content: {
              "text/event-stream": {
                "x-speakeasy-sse-sentinel": "[DONE]",
                schema: { $ref: "#/components/schemas/StreamedChatResult" },
              },
            },
          },
        },
      },
    },
    "/dedicated/v1/images/generations": {
      post: { operationId: "images", requestBody: { $ref: "#/components/schemas/Image" } },
    },
  },
  components: {
    schemas: {
      Body: { type: "object", properties: { example: { type: "string", examples: ["x"] }, n: { type: "integer" } } },
      StreamedChatResult: { type: "object", properties: { data: { $ref: "#/components/schemas/StreamedChatData" } } },
      StreamedChatData: { type: "object", properties: { delta: { $ref: "#/components/schemas/Delta" } } },
      Delta: { type: "object", properties: { content: { type: "string" } } },
      Image: { type: "object" },
      Unused: { type: "string" },
    },
  },
})

const config = readConfig({
  upstream: { repository: "github.com/o/r", path: "openapi.yaml", commit: "abc1234", date: "2026-01-02", file: "x" },
  prefixes: ["/serverless/v1/", "/dedicated/v1/"],
  operations: ["chat/completions"],
  renames: { StreamedChatData: "ChatCompletionChunk" },
  published_in_0_1_0: ["ChatCompletionChunk"],
})

const overlay = (actions: ReadonlyArray<unknown>): Overlay =>
  readOverlay({ overlay: "1.0.0", info: { title: "t", version: "1" }, actions })

const reasoning = {
  target: "$.components.schemas.Delta.properties",
  description: "reasoning_content is sent",
  "x-evidence": ["https://example.com/guide"],
  update: { reasoning_content: { type: "string" } },
}

describe("the sync", () => {
  it("takes the selected operations and their #stream variants, and exactly the schemas they reach", () => {
    const d = derive(upstream(), overlay([]), config)
    assert.deepStrictEqual(Object.keys(d.document.paths as object), [
      "/serverless/v1/chat/completions",
      "/serverless/v1/chat/completions#stream",
    ])
    const schemas = (d.document.components as { schemas: object }).schemas
    assert.deepStrictEqual(Object.keys(schemas).sort(), ["Body", "ChatCompletionChunk", "Delta", "StreamedChatResult"])
    assert.equal(d.operations, 2)
    assert.equal(d.schemas, 4)
  })

  it("drops examples and documentation-site extensions but keeps a property named example and the SSE sentinel", () => {
    const text = JSON.stringify(derive(upstream(), overlay([]), config).document)
    assert.doesNotMatch(text, /x-mint|"examples"/)
    assert.match(text, /"example":\{"type":"string"\}/)
    assert.match(text, /"x-speakeasy-sse-sentinel":"\[DONE\]"/)
  })

  it("renames schemas and every reference to them, and marks the names published in 0.1.0", () => {
    const d = derive(upstream(), overlay([]), config)
    const text = JSON.stringify(d.document)
    assert.doesNotMatch(text, /StreamedChatData/)
    assert.match(text, /"\$ref":"#\/components\/schemas\/ChatCompletionChunk"/)
    const schemas = (d.document.components as { schemas: Record<string, Record<string, unknown>> }).schemas
    assert.equal(schemas.ChatCompletionChunk?.["x-since"], "0.1.0")
    assert.equal(schemas.Delta?.["x-since"], undefined)
  })

  it("records the upstream repository, path, commit and date", () => {
    const info = derive(upstream(), overlay([]), config).document.info as Record<string, unknown>
    assert.deepStrictEqual(info["x-upstream"], {
      repository: "github.com/o/r",
      path: "openapi.yaml",
      commit: "abc1234",
      date: "2026-01-02",
    })
  })

  it("applies overlay updates and removals to the upstream names before renaming", () => {
    const d = derive(
      upstream(),
      overlay([
        reasoning,
        { target: "$.components.schemas.Body.properties.n", description: "gone", "x-evidence": ["e"], remove: true },
      ]),
      config,
    )
    const schemas = (d.document.components as { schemas: Record<string, { properties: object }> }).schemas
    assert.deepStrictEqual(Object.keys(schemas.Delta!.properties), ["content", "reasoning_content"])
    assert.deepStrictEqual(Object.keys(schemas.Body!.properties), ["example"])
  })

  it("fails on an overlay target that no longer exists, and on an action without evidence", () => {
    assert.throws(
      () => derive(upstream(), overlay([{ ...reasoning, target: "$.components.schemas.Gone.properties" }]), config),
      /Gone\.properties does not exist/,
    )
    assert.throws(() => overlay([{ ...reasoning, "x-evidence": [] }]), /has no x-evidence/)
  })

  it("fails on a rename of a schema that is not derived", () => {
    const bad = readConfig({ ...config, upstream: config.upstream, renames: { Unused: "Other" } })
    assert.throws(() => derive(upstream(), overlay([]), bad), /renames Unused, which is not a derived schema/)
  })

  it("reads overlay targets with dotted names and quoted brackets", () => {
    assert.deepStrictEqual(pathSegments("$.paths['/v1/chat/completions#stream'].post"), [
      ["paths"],
      ["/v1/chat/completions#stream"],
      ["post"],
    ])
    assert.throws(() => pathSegments("$.a[*]"), /cannot read it/)
  })

  it("reads a union of names and an array index in a target", () => {
    assert.deepStrictEqual(pathSegments("$.components.schemas['A', \"B\"].properties.n.anyOf[0]"), [
      ["components"],
      ["schemas"],
      ["A", "B"],
      ["properties"],
      ["n"],
      ["anyOf"],
      ["0"],
    ])
    assert.throws(() => pathSegments("$.a['b',]"), /cannot read it/)
  })

  it("applies an action with a union target to each schema it names, and fails naming the one that is missing", () => {
    const bounded = (target: string) =>
      overlay([
        { target, description: "prose bound", "x-evidence": ["upstream: Body.n description"], update: { minimum: 0 } },
      ])
    const doc = upstream()
    doc.components.schemas.Delta.properties = {
      ...doc.components.schemas.Delta.properties,
      n: { type: "integer" },
    } as never
    const d = derive(doc, bounded("$.components.schemas['Body','Delta'].properties.n"), config)
    const schemas = (d.document.components as { schemas: Record<string, { properties: Record<string, object> }> })
      .schemas
    assert.deepStrictEqual(schemas.Body!.properties.n, { type: "integer", minimum: 0 })
    assert.deepStrictEqual(schemas.Delta!.properties.n, { type: "integer", minimum: 0 })
    assert.throws(
      () => derive(upstream(), bounded("$.components.schemas['Body','Delta'].properties.n"), config),
      /\$\.components\.schemas\.Delta\.properties\.n does not exist/,
    )
  })

  it("updates an anyOf member chosen by index", () => {
    const doc = upstream()
    doc.components.schemas.Body.properties.n = { anyOf: [{ type: "integer" }, { type: "null" }] } as never
    const action = { target: "$.components.schemas.Body.properties.n.anyOf[0]", description: "d", "x-evidence": ["e"] }
    const d = derive(doc, overlay([{ ...action, update: { maximum: 2 } }]), config)
    const schemas = (d.document.components as { schemas: Record<string, { properties: Record<string, object> }> })
      .schemas
    assert.deepStrictEqual(schemas.Body!.properties.n, { anyOf: [{ type: "integer", maximum: 2 }, { type: "null" }] })
  })
})
