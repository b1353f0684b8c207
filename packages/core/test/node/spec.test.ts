// Strict means exactly what Friendli's description allows: values generated from the description itself
// (openapi/friendli.yaml as the sync derives it, and our openapi/compatible.yaml), not from the generated code,
// are accepted by each component's compiled guard and Effect Schema; values it refuses are refused by both.
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { parse } from "yaml"
import * as Guards from "../../src/generated/guards.ts"
import * as Schemas from "../../src/generated/schemas.ts"
import { sampleSize } from "../support/property.ts"
import { seedOf } from "../support/schemas.ts"
import { type Components, invalid, valid } from "./support/arbitraries.ts"

const openapi = resolve(import.meta.dirname, "../../openapi")
const schemasOf = (file: string): Record<string, unknown> =>
  (parse(readFileSync(resolve(openapi, file), "utf8")) as { components: { schemas: Record<string, unknown> } })
    .components.schemas
const friendli = schemasOf("friendli.yaml")
const components: Components = new Map(Object.entries({ ...friendli, ...schemasOf("compatible.yaml") }))

/** Values per component and per direction (valid, refused): 500 on Node 24, 50 on Node 22. */
const runs = sampleSize(500)
const guards = Guards as unknown as Record<string, (u: unknown) => boolean>
const schemas = Schemas as unknown as Record<string, Schema.Codec<unknown, unknown>>

describe("values generated from the description", () => {
  it("cover the streamed chunks and events and the request bodies", () => {
    for (const name of [
      "ChatCompletionChunk",
      "CompletionChunk",
      "ToolStatusEvent",
      "ChatCompletionRequest",
      "CompletionRequest",
      "ToolAssistedChatCompletionRequest",
      "ResponsesStreamEvent",
      "MessagesStreamEvent",
    ]) {
      assert.ok(components.has(name), `${name} is not in the description`)
    }
    assert.ok(Object.keys(friendli).length >= 250, `only ${Object.keys(friendli).length} derived schemas`)
  })

  for (const [name, schema] of components) {
    const guard = guards[`is${name}`]
    const codec = schemas[name]
    it(`${name}: the guard and the Schema accept every value the description allows`, () => {
      assert.ok(guard !== undefined && codec !== undefined, `no guard or Schema named after ${name}`)
      const is = Schema.is(Schema.toEncoded(codec))
      fc.assert(
        fc.property(valid(components, schema), (v) => {
          assert.equal(guard(v), true, `the guard refuses ${JSON.stringify(v)}`)
          assert.equal(is(v), true, `the Schema refuses ${JSON.stringify(v)}`)
        }),
        { seed: seedOf(name), numRuns: runs },
      )
    })

    const bad = invalid(components, schema)
    if (bad === undefined) continue
    it(`${name}: the guard and the Schema refuse values the description refuses`, () => {
      assert.ok(guard !== undefined && codec !== undefined, `no guard or Schema named after ${name}`)
      const is = Schema.is(Schema.toEncoded(codec))
      fc.assert(
        fc.property(bad, (v) => {
          assert.equal(guard(v), false, `the guard accepts ${JSON.stringify(v)}`)
          assert.equal(is(v), false, `the Schema accepts ${JSON.stringify(v)}`)
        }),
        { seed: seedOf(name) + 1, numRuns: runs },
      )
    })
  }
})
