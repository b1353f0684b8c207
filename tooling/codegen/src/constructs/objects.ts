/**
 * `type: object`: known `properties` (with `required`) become a struct that tolerates properties it does not
 * name, since servers add fields; an object with no properties is a map whose values follow
 * `additionalProperties` (any value when that is absent or `true`).
 */
import type { Node, ObjectNode, Property, RecordNode } from "../ir.ts"
import { isIdentifier, isSchemaObject, type ParseContext, propertyKey, type SchemaObject } from "./context.ts"

/** Parses an object schema (`type: object`, or untyped with `properties`/`additionalProperties`). */
export const parseObject = (schema: SchemaObject, path: string, ctx: ParseContext): Node => {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {}
  const names = Object.keys(properties)
  if (names.length === 0) {
    const extra = schema.additionalProperties
    const values: Node = isSchemaObject(extra) ? ctx.parse(extra, `${path}/additionalProperties`) : { kind: "unknown" }
    return { kind: "record", values }
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [])
  const props: Array<Property> = names.map((name) => {
    const sub = properties[name]
    const description = isSchemaObject(sub) && typeof sub.description === "string" ? sub.description : undefined
    return {
      name,
      node: ctx.parse(sub, `${path}/properties/${name}`),
      required: required.has(name),
      ...(description === undefined ? {} : { description }),
    }
  })
  for (const r of required) {
    if (!names.includes(r)) props.push({ name: r, node: { kind: "unknown" }, required: true })
  }
  return { kind: "object", properties: props }
}

/**
 * The name of the helper, written once at the top of `schemas.ts` (see {@link preservingHelper}), that makes a struct
 * keep the properties it does not name when decoding.
 */
export const preserving = "preserving"

/**
 * The statements of the {@link preserving} helper. Effect 4 has no `onExcessProperty: "preserve"`: a struct keeps
 * what it does not name through an index signature of any values (`Schema.StructWithRest`), which accepts the same
 * values as the struct alone. The signature is left out of the struct's types, as it was with the Effect 3 parse
 * option: a `{ readonly [x: string]: unknown }` in a request type would let misspelt properties through.
 */
export const preservingHelper = (): string =>
  [
    "/** The properties a struct does not name: any keys, any values. */",
    "const unnamed = [Schema.Record(Schema.String, Schema.Unknown)] as const",
    "",
    "/**",
    " * A struct that keeps the properties it does not name when decoding, as servers add fields. Its types name only its",
    " * own properties, so that a misspelt one is still a type error.",
    " */",
    "const preserving = <const Fields extends Schema.Struct.Fields>(",
    "  struct: Schema.Struct<Fields>,",
    "): Schema.StructWithRest<Schema.Struct<Fields>, readonly []> =>",
    "  Schema.StructWithRest(struct, unnamed) as unknown as Schema.StructWithRest<Schema.Struct<Fields>, readonly []>",
  ].join("\n")

/** A property's description as a JSDoc comment (carried to the Schema's types), or nothing. */
const propertyDoc = (p: Property): string =>
  p.description === undefined || p.description.trim() === ""
    ? ""
    : `\n/** ${p.description
        .trim()
        .replace(/\*\//g, "*\\/")
        .replace(/\s*\n\s*/g, " ")} */\n`

/**
 * The Effect Schema expression of an object, given the expressions of its property schemas. An optional property
 * may be absent or `undefined`, as the guards allow. Property descriptions become the fields' JSDoc.
 */
export const objectSchema = (node: ObjectNode, schemaOf: (node: Node) => string): string => {
  const fields = node.properties.map((p) => {
    const s = schemaOf(p.node)
    return `${propertyDoc(p)}${propertyKey(p.name)}: ${p.required ? s : `Schema.optional(${s})`}`
  })
  return `${preserving}(Schema.Struct({ ${fields.join(", ")} }))`
}

/** The Effect Schema expression of a map. */
export const recordSchema = (node: RecordNode, schemaOf: (node: Node) => string): string =>
  `Schema.Record(Schema.String, ${schemaOf(node.values)})`

const isObjectCheck = `if (typeof u !== "object" || u === null || Array.isArray(u)) return false`

/**
 * The statements of an object guard over `u`: one local per property (read once), a check per property.
 * A required property that any value satisfies must still be present.
 */
export const objectGuardBody = (node: ObjectNode, guardOf: (node: Node, value: string) => string): string => {
  const lines = [isObjectCheck, "const o = u as { readonly [key: string]: unknown }"]
  node.properties.forEach((p, i) => {
    const v = `p${i}`
    const read = isIdentifier(p.name) ? `o.${p.name}` : `o[${JSON.stringify(p.name)}]`
    if (p.node.kind === "unknown") {
      if (p.required) lines.push(`if (!Object.hasOwn(o, ${JSON.stringify(p.name)})) return false`)
      return
    }
    lines.push(`const ${v} = ${read}`)
    const check = guardOf(p.node, v)
    lines.push(p.required ? `if (!(${check})) return false` : `if (${v} !== undefined && !(${check})) return false`)
  })
  lines.push("return true")
  return lines.join("\n  ")
}

/** The statements of a map guard over `u`. */
export const recordGuardBody = (node: RecordNode, guardOf: (node: Node, value: string) => string): string => {
  if (node.values.kind === "unknown") return `return typeof u === "object" && u !== null && !Array.isArray(u)`
  return [
    isObjectCheck,
    "const o = u as { readonly [key: string]: unknown }",
    `for (const k in o) {`,
    `  const v = o[k]`,
    `  if (!(${guardOf(node.values, "v")})) return false`,
    `}`,
    "return true",
  ].join("\n  ")
}
