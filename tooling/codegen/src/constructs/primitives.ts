/**
 * `type: string | number | integer | boolean | null`, with `minimum` and `maximum` on numbers.
 * `integer` means a safe integer, as `Schema.Int` does.
 */
import type { Node, PrimitiveNode } from "../ir.ts"
import type { SchemaObject } from "./context.ts"

const primitiveTypes = new Set(["string", "number", "integer", "boolean"])

/** Parses one primitive `type` of a schema; the schema's `minimum`/`maximum` apply to numbers. */
export const parsePrimitive = (type: string, schema: SchemaObject): Node | undefined => {
  if (type === "null") return { kind: "null" }
  if (!primitiveTypes.has(type)) return undefined
  const kind = type as PrimitiveNode["kind"]
  if (kind !== "number" && kind !== "integer") return { kind }
  const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined
  const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined
  return {
    kind,
    ...(minimum === undefined ? {} : { minimum }),
    ...(maximum === undefined ? {} : { maximum }),
  }
}

const base = { string: "Schema.String", number: "Schema.Number", integer: "Schema.Int", boolean: "Schema.Boolean" }

/** The Effect Schema expression of a primitive. */
export const primitiveSchema = (node: PrimitiveNode): string => {
  const checks: Array<string> = []
  if (node.minimum !== undefined) checks.push(`Schema.isGreaterThanOrEqualTo(${node.minimum})`)
  if (node.maximum !== undefined) checks.push(`Schema.isLessThanOrEqualTo(${node.maximum})`)
  return checks.length === 0 ? base[node.kind] : `${base[node.kind]}.check(${checks.join(", ")})`
}

/** The guard expression of a primitive over `value` (an identifier). */
export const primitiveGuard = (node: PrimitiveNode, value: string): string => {
  const checks: Array<string> = []
  if (node.kind === "integer") checks.push(`typeof ${value} === "number"`, `Number.isSafeInteger(${value})`)
  else checks.push(`typeof ${value} === ${JSON.stringify(node.kind)}`)
  if (node.minimum !== undefined) checks.push(`${value} >= ${node.minimum}`)
  if (node.maximum !== undefined) checks.push(`${value} <= ${node.maximum}`)
  return checks.join(" && ")
}
