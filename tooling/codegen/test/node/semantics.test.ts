import assert from "node:assert/strict"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import * as Schema from "effect/Schema"
import { generate } from "../../src/generate.ts"
import { documentOf } from "../support.ts"

/**
 * Each case is generated for real, written out and imported: the compiled guard must accept and reject
 * exactly what the generated Effect Schema does, and what it accepts decodes to itself (so no normaliser is needed).
 */
interface Case {
  readonly name: string
  readonly given: unknown
  readonly components?: Record<string, unknown>
  readonly accepts: ReadonlyArray<unknown>
  readonly rejects: ReadonlyArray<unknown>
}

const cases: ReadonlyArray<Case> = [
  {
    name: "integers reject fractions and unsafe integers",
    given: { type: "integer", minimum: 0 },
    accepts: [0, 7, 2 ** 53 - 1],
    rejects: [-1, 1.5, 2 ** 53, "1", null],
  },
  {
    name: "numbers honour both bounds",
    given: { type: "number", minimum: 0, maximum: 1 },
    accepts: [0, 0.5, 1],
    rejects: [-0.1, 1.1, "0.5"],
  },
  {
    name: "exclusive bounds leave their ends out",
    given: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    accepts: [0.001, 0.5, 0.999],
    rejects: [0, 1, -1],
  },
  {
    name: "string lengths and array sizes are bounded",
    given: {
      type: "object",
      properties: {
        s: { type: "string", minLength: 1, maxLength: 3 },
        a: { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 2 },
      },
    },
    accepts: [{}, { s: "a", a: [1] }, { s: "abc", a: [1, 2] }],
    rejects: [{ s: "" }, { s: "abcd" }, { a: [] }, { a: [1, 2, 3] }],
  },
  {
    name: "a pattern is matched anywhere unless anchored, and a slash in it is a slash",
    given: {
      type: "object",
      properties: {
        name: { type: "string", pattern: "^[A-Za-z0-9_-]+$", maxLength: 4 },
        path: { type: "string", pattern: "a/b" },
      },
    },
    accepts: [{}, { name: "a_-9" }, { path: "xa/by" }],
    rejects: [{ name: "" }, { name: "a b" }, { name: "é" }, { name: "abcde" }, { path: "ab" }, { name: 1 }],
  },
  {
    name: "enums accept only their values",
    given: { enum: ["a", 1, true, null] },
    accepts: ["a", 1, true, null],
    rejects: ["b", 2, false, undefined],
  },
  {
    name: "objects check present properties, require required ones, and tolerate extras",
    given: { type: "object", required: ["id"], properties: { id: { type: "string" }, n: { type: "integer" } } },
    accepts: [{ id: "x" }, { id: "x", n: 1 }, { id: "x", extra: [1, 2] }],
    rejects: [{}, { id: 1 }, { id: "x", n: "1" }, null, [], "x"],
  },
  {
    name: "a required property of any value must still be present",
    given: { type: "object", required: ["v"], properties: { v: {} } },
    accepts: [{ v: null }, { v: 0 }],
    rejects: [{}],
  },
  {
    name: "arrays check every element",
    given: { type: "array", items: { type: "string" } },
    accepts: [[], ["a", "b"]],
    rejects: [["a", 1], {}, "ab"],
  },
  {
    name: "maps check every value",
    given: { type: "object", additionalProperties: { type: "number" } },
    accepts: [{}, { a: 1 }],
    rejects: [{ a: "1" }, [], null],
  },
  {
    name: "unions accept what any member accepts",
    given: {
      anyOf: [{ $ref: "#/components/schemas/S" }, { type: "array", items: { type: "integer" } }, { type: "null" }],
    },
    components: { S: { type: "string" } },
    accepts: ["x", [1], null],
    rejects: [1, ["x"], {}],
  },
  {
    name: "allOf requires the properties of every member",
    given: {
      allOf: [
        { type: "object", required: ["a"], properties: { a: { type: "string" } } },
        { $ref: "#/components/schemas/B" },
      ],
    },
    components: { B: { type: "object", required: ["b"], properties: { b: { type: "boolean" } } } },
    accepts: [{ a: "x", b: true }],
    rejects: [{ a: "x" }, { b: true }],
  },
  {
    name: "recursive schemas check every level",
    given: {
      type: "object",
      required: ["v"],
      properties: { v: { type: "integer" }, next: { $ref: "#/components/schemas/Subject" } },
    },
    accepts: [{ v: 1 }, { v: 1, next: { v: 2, next: { v: 3 } } }],
    rejects: [
      { v: 1, next: { v: "2" } },
      { v: 1, next: { next: { v: 3 } } },
    ],
  },
]

const work = join(import.meta.dirname, "../../node_modules/.cache/semantics")

describe("generated guards and schemas", () => {
  cases.forEach((c, i) => {
    it(c.name, async () => {
      const dir = join(work, String(i))
      mkdirSync(dir, { recursive: true })
      const { files } = await generate(documentOf(c.given, c.components), { source: "test" })
      for (const f of files) writeFileSync(join(dir, f.path), f.contents)
      const mod = (await import(join(dir, "index.ts"))) as Record<string, unknown>
      const schema = mod.Subject as Schema.Codec<unknown, unknown>
      const guard = mod.isSubject as (u: unknown) => boolean
      const is = Schema.is(Schema.toEncoded(schema))
      for (const v of c.accepts) {
        assert.equal(guard(v), true, `guard rejects ${JSON.stringify(v)}`)
        assert.equal(is(v), true, `Schema rejects ${JSON.stringify(v)}`)
        assert.deepStrictEqual(Schema.decodeUnknownSync(schema)(v), v)
      }
      for (const v of c.rejects) {
        assert.equal(guard(v), false, `guard accepts ${JSON.stringify(v)}`)
        assert.equal(is(v), false, `Schema accepts ${JSON.stringify(v)}`)
      }
    }, 30_000)
  })
})
