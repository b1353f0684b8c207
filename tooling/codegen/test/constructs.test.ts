import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import type { Node } from "../src/ir.ts"
import { parsed } from "./support.ts"

interface Case {
  readonly name: string
  readonly given: unknown
  readonly components?: Record<string, unknown>
  readonly want: Node
  readonly wantSchema: string
}

const table = (construct: string, cases: ReadonlyArray<Case>): void => {
  describe(construct, () => {
    for (const c of cases) {
      it(c.name, () => {
        const got = parsed(c.given, c.components)
        assert.deepStrictEqual(got.node, c.want)
        assert.equal(got.schema, c.wantSchema)
      })
    }
  })
}

table("primitives", [
  { name: "a string is a string", given: { type: "string" }, want: { kind: "string" }, wantSchema: "Schema.String" },
  {
    name: "a string's length and pattern bound it; its format is documentation only",
    given: { type: "string", format: "date-time", pattern: "^a/b$", minLength: 1, maxLength: 3 },
    want: { kind: "string", minLength: 1, maxLength: 3, pattern: "^a/b$" },
    wantSchema: "Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(3), Schema.isPattern(/^a\\/b$/u))",
  },
  {
    name: "exclusive bounds bound a number",
    given: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 2 },
    want: { kind: "number", exclusiveMinimum: 0, exclusiveMaximum: 2 },
    wantSchema: "Schema.Number.check(Schema.isGreaterThan(0), Schema.isLessThan(2))",
  },
  {
    name: "minItems and maxItems bound an array",
    given: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 },
    want: { kind: "array", items: { kind: "string" }, minItems: 1, maxItems: 2 },
    wantSchema: "Schema.Array(Schema.String).check(Schema.isMinLength(1), Schema.isMaxLength(2))",
  },
  {
    name: "an integer is a safe integer",
    given: { type: "integer" },
    want: { kind: "integer" },
    wantSchema: "Schema.Int",
  },
  {
    name: "minimum and maximum bound a number",
    given: { type: "number", minimum: 0, maximum: 1 },
    want: { kind: "number", minimum: 0, maximum: 1 },
    wantSchema: "Schema.Number.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1))",
  },
  {
    name: "a boolean is a boolean",
    given: { type: "boolean" },
    want: { kind: "boolean" },
    wantSchema: "Schema.Boolean",
  },
  { name: "the null type is null", given: { type: "null" }, want: { kind: "null" }, wantSchema: "Schema.Null" },
  { name: "an empty schema is any value", given: {}, want: { kind: "unknown" }, wantSchema: "Schema.Unknown" },
  { name: "the schema true is any value", given: true, want: { kind: "unknown" }, wantSchema: "Schema.Unknown" },
])

describe("patterns", () => {
  it("a pattern that is not an ECMAScript regular expression is an error naming it", () => {
    assert.throws(
      () => parsed({ type: "string", pattern: "^(a" }),
      /pattern "\^\(a" is not an ECMAScript regular expression/,
    )
  })
})

table("documentation", [
  {
    name: "a property's description becomes its field's JSDoc, on one line",
    given: { type: "object", properties: { a: { type: "string", description: "The a.\nSecond line." } } },
    want: {
      kind: "object",
      properties: [{ name: "a", node: { kind: "string" }, required: false, description: "The a.\nSecond line." }],
    },
    wantSchema: "preserving(Schema.Struct({ \n/** The a. Second line. */\na: Schema.optional(Schema.String) }))",
  },
])

table("nullable", [
  {
    name: "a type list with null is nullable",
    given: { type: ["integer", "null"] },
    want: { kind: "union", members: [{ kind: "integer" }, { kind: "null" }] },
    wantSchema: "Schema.NullOr(Schema.Int)",
  },
  {
    name: "OpenAPI 3.0's nullable: true is nullable",
    given: { type: "string", nullable: true },
    want: { kind: "union", members: [{ kind: "string" }, { kind: "null" }] },
    wantSchema: "Schema.NullOr(Schema.String)",
  },
  {
    name: "a type list of several types is a union of them",
    given: { type: ["string", "integer", "null"] },
    want: { kind: "union", members: [{ kind: "string" }, { kind: "integer" }, { kind: "null" }] },
    wantSchema: "Schema.Union([Schema.String, Schema.Int, Schema.Null])",
  },
])

table("enums and const", [
  {
    name: "an enum is a list of literals",
    given: { type: "string", enum: ["stop", "length"] },
    want: { kind: "literal", values: ["stop", "length"] },
    wantSchema: 'Schema.Literals(["stop", "length"])',
  },
  {
    name: "a nullable enum also allows null",
    given: { type: ["string", "null"], enum: ["a"] },
    want: { kind: "literal", values: ["a", null] },
    wantSchema: 'Schema.NullOr(Schema.Literal("a"))',
  },
  {
    name: "a nullable enum of several values is null or one of them",
    given: { type: ["string", "null"], enum: ["a", "b"] },
    want: { kind: "literal", values: ["a", "b", null] },
    wantSchema: 'Schema.NullOr(Schema.Literals(["a", "b"]))',
  },
  {
    name: "an enum of null alone is null",
    given: { enum: [null] },
    want: { kind: "literal", values: [null] },
    wantSchema: "Schema.Null",
  },
  {
    name: "const is a single literal",
    given: { const: "text_completion" },
    want: { kind: "literal", values: ["text_completion"] },
    wantSchema: 'Schema.Literal("text_completion")',
  },
  {
    name: 'const "null" is the string "null" (Friendli lists it as a finish reason)',
    given: { const: "null" },
    want: { kind: "literal", values: ["null"] },
    wantSchema: 'Schema.Literal("null")',
  },
])

table("objects", [
  {
    name: "required properties are required, the others optional",
    given: { type: "object", required: ["id"], properties: { id: { type: "string" }, n: { type: "integer" } } },
    want: {
      kind: "object",
      properties: [
        { name: "id", node: { kind: "string" }, required: true },
        { name: "n", node: { kind: "integer" }, required: false },
      ],
    },
    wantSchema: "preserving(Schema.Struct({ id: Schema.String, n: Schema.optional(Schema.Int) }))",
  },
  {
    name: "a property name that is not an identifier is quoted",
    given: { type: "object", properties: { "x-y": { type: "boolean" } } },
    want: { kind: "object", properties: [{ name: "x-y", node: { kind: "boolean" }, required: false }] },
    wantSchema: 'preserving(Schema.Struct({ "x-y": Schema.optional(Schema.Boolean) }))',
  },
  {
    name: "a required name with no property schema must be present with any value",
    given: { type: "object", required: ["a", "b"], properties: { a: { type: "string" } } },
    want: {
      kind: "object",
      properties: [
        { name: "a", node: { kind: "string" }, required: true },
        { name: "b", node: { kind: "unknown" }, required: true },
      ],
    },
    wantSchema: "preserving(Schema.Struct({ a: Schema.String, b: Schema.Unknown }))",
  },
  {
    name: "an object with no properties is a map of any values",
    given: { type: "object" },
    want: { kind: "record", values: { kind: "unknown" } },
    wantSchema: "Schema.Record(Schema.String, Schema.Unknown)",
  },
  {
    name: "additionalProperties with a schema is a map of that schema",
    given: { type: "object", additionalProperties: { type: "number" } },
    want: { kind: "record", values: { kind: "number" } },
    wantSchema: "Schema.Record(Schema.String, Schema.Number)",
  },
  {
    name: "properties without a type are an object",
    given: { properties: { a: { type: "string" } } },
    want: { kind: "object", properties: [{ name: "a", node: { kind: "string" }, required: false }] },
    wantSchema: "preserving(Schema.Struct({ a: Schema.optional(Schema.String) }))",
  },
  {
    name: "a nullable object is an object or null",
    given: { type: ["object", "null"], properties: { a: { type: "string" } } },
    want: {
      kind: "union",
      members: [
        { kind: "object", properties: [{ name: "a", node: { kind: "string" }, required: false }] },
        { kind: "null" },
      ],
    },
    wantSchema: "Schema.NullOr(preserving(Schema.Struct({ a: Schema.optional(Schema.String) })))",
  },
])

table("arrays", [
  {
    name: "items give the element schema",
    given: { type: "array", items: { type: "integer" } },
    want: { kind: "array", items: { kind: "integer" } },
    wantSchema: "Schema.Array(Schema.Int)",
  },
  {
    name: "an array without items holds anything",
    given: { type: "array" },
    want: { kind: "array", items: { kind: "unknown" } },
    wantSchema: "Schema.Array(Schema.Unknown)",
  },
  {
    name: "items without a type are an array",
    given: { items: { type: "string" } },
    want: { kind: "array", items: { kind: "string" } },
    wantSchema: "Schema.Array(Schema.String)",
  },
])

table("$ref", [
  {
    name: "a reference names the component",
    given: { $ref: "#/components/schemas/Usage" },
    components: { Usage: { type: "object", properties: { n: { type: "integer" } } } },
    want: { kind: "ref", name: "Usage" },
    wantSchema: "Usage",
  },
  {
    name: "a reference with an escaped name is unescaped",
    given: { $ref: "#/components/schemas/a~1b" },
    components: { "a/b": { type: "string" } },
    want: { kind: "ref", name: "a/b" },
    wantSchema: "AB",
  },
  {
    name: "a reference into a cycle is lazy",
    given: { type: "object", properties: { next: { $ref: "#/components/schemas/Subject" } } },
    want: {
      kind: "object",
      properties: [{ name: "next", node: { kind: "ref", name: "Subject" }, required: false }],
    },
    wantSchema: "preserving(Schema.Struct({ next: Schema.optional(Schema.suspend(() => Subject)) }))",
  },
])

table("oneOf and anyOf", [
  {
    name: "anyOf is a union of its members",
    given: { anyOf: [{ type: "string" }, { type: "integer" }] },
    want: { kind: "union", members: [{ kind: "string" }, { kind: "integer" }] },
    wantSchema: "Schema.Union([Schema.String, Schema.Int])",
  },
  {
    name: "oneOf is read as a union too (overlapping members are accepted)",
    given: { oneOf: [{ type: "string" }, { type: "string", enum: ["a"] }], discriminator: { propertyName: "x" } },
    want: { kind: "union", members: [{ kind: "string" }, { kind: "literal", values: ["a"] }] },
    wantSchema: 'Schema.Union([Schema.String, Schema.Literal("a")])',
  },
  {
    name: "a member that is null makes the union nullable",
    given: { anyOf: [{ $ref: "#/components/schemas/A" }, { type: "null" }] },
    components: { A: { type: "string" } },
    want: { kind: "union", members: [{ kind: "ref", name: "A" }, { kind: "null" }] },
    wantSchema: "Schema.NullOr(A)",
  },
  {
    name: "nested unions are flattened and repeated members dropped",
    given: { anyOf: [{ type: "string" }, { anyOf: [{ type: "string" }, { type: "boolean" }] }] },
    want: { kind: "union", members: [{ kind: "string" }, { kind: "boolean" }] },
    wantSchema: "Schema.Union([Schema.String, Schema.Boolean])",
  },
  {
    name: "a union with an any-value member is any value",
    given: { anyOf: [{ type: "string" }, {}] },
    want: { kind: "unknown" },
    wantSchema: "Schema.Unknown",
  },
])

table("allOf", [
  {
    name: "allOf merges the properties of its objects, through references",
    given: {
      allOf: [
        { type: "object", required: ["prompt"], properties: { prompt: { type: "string" } } },
        { $ref: "#/components/schemas/Common" },
      ],
    },
    components: { Common: { type: "object", properties: { n: { type: "integer" } } } },
    want: {
      kind: "object",
      properties: [
        { name: "prompt", node: { kind: "string" }, required: true },
        { name: "n", node: { kind: "integer" }, required: false },
      ],
    },
    wantSchema: "preserving(Schema.Struct({ prompt: Schema.String, n: Schema.optional(Schema.Int) }))",
  },
  {
    name: "a property required by any member is required",
    given: {
      allOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", required: ["a"], properties: { a: { type: "string" } } },
      ],
    },
    want: { kind: "object", properties: [{ name: "a", node: { kind: "string" }, required: true }] },
    wantSchema: "preserving(Schema.Struct({ a: Schema.String }))",
  },
])

describe("what the generator cannot express", () => {
  it("warns about an unknown type and accepts any value there", () => {
    const got = parsed({ type: "file" })
    assert.deepStrictEqual(got.node, { kind: "unknown" })
    assert.deepStrictEqual(got.warnings, ['unknown type "file" is read as any value'])
  })

  it("fails on a reference to a component that does not exist, naming it", () => {
    assert.throws(() => parsed({ $ref: "#/components/schemas/Nope" }), /Nope points to no component schema/)
  })

  it("fails on a reference outside the document's components", () => {
    assert.throws(() => parsed({ $ref: "other.yaml#/Foo" }), /only local component refs/)
  })
})
