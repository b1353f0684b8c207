/**
 * `anyOf`, `oneOf` and `allOf`. `anyOf` and `oneOf` are both read as "any member accepts" (a `oneOf` whose
 * members overlap is accepted, as a lenient client should); `allOf` of object schemas merges their properties.
 */
import type { Node, ObjectNode, Property, UnionNode } from "../ir.ts"
import { isSchemaObject, type ParseContext, type SchemaObject } from "./context.ts"

/** Builds a union, flattening nested unions and dropping repeated members. */
export const union = (members: ReadonlyArray<Node>): Node => {
  const flat: Array<Node> = []
  const seen = new Set<string>()
  for (const m of members) {
    for (const n of m.kind === "union" ? m.members : [m]) {
      const key = JSON.stringify(n)
      if (!seen.has(key)) {
        seen.add(key)
        flat.push(n)
      }
    }
  }
  if (flat.some((n) => n.kind === "unknown")) return { kind: "unknown" }
  return flat.length === 1 ? flat[0]! : { kind: "union", members: flat }
}

/** Parses `anyOf` / `oneOf` (and `nullable: true` next to them). */
export const parseUnion = (schema: SchemaObject, path: string, ctx: ParseContext): Node | undefined => {
  const keyword = Array.isArray(schema.anyOf) ? "anyOf" : Array.isArray(schema.oneOf) ? "oneOf" : undefined
  if (keyword === undefined) return undefined
  const members = (schema[keyword] as Array<unknown>).map((m, i) => ctx.parse(m, `${path}/${keyword}/${i}`))
  if (schema.nullable === true) members.push({ kind: "null" })
  return union(members)
}

/** Parses `allOf`: object members (directly or through `$ref`) are merged into one object. */
export const parseAllOf = (schema: SchemaObject, path: string, ctx: ParseContext): Node | undefined => {
  if (!Array.isArray(schema.allOf)) return undefined
  const parts = schema.allOf.map((m, i) => {
    const memberPath = `${path}/allOf/${i}`
    const resolved = isSchemaObject(m) && typeof m.$ref === "string" ? ctx.resolve(m.$ref, memberPath).schema : m
    return ctx.parse(resolved, memberPath)
  })
  const objects = parts.filter((p): p is ObjectNode => p.kind === "object")
  const others = parts.filter((p) => p.kind !== "object" && p.kind !== "record" && p.kind !== "unknown")
  if (others.length > 0) ctx.warn(path, "allOf members that are not objects are left out")
  if (objects.length === 0) return others[0] ?? { kind: "unknown" }
  const byName = new Map<string, Property>()
  for (const o of objects) {
    for (const p of o.properties) {
      const prev = byName.get(p.name)
      byName.set(p.name, { ...p, required: p.required || (prev?.required ?? false) })
    }
  }
  return { kind: "object", properties: [...byName.values()] }
}

/** The Effect Schema expression of a union; `X | null` is written `Schema.NullOr(X)`. */
export const unionSchema = (node: UnionNode, schemaOf: (node: Node) => string): string => {
  const nonNull = node.members.filter((m) => m.kind !== "null")
  if (nonNull.length === 1 && node.members.length === 2) return `Schema.NullOr(${schemaOf(nonNull[0]!)})`
  return `Schema.Union([${node.members.map(schemaOf).join(", ")}])`
}

/** The guard expression of a union over `value`. */
export const unionGuard = (node: UnionNode, value: string, guardOf: (node: Node, value: string) => string): string =>
  node.members.map((m) => `(${guardOf(m, value)})`).join(" || ")
