/** `enum` and `const`: a value from a fixed list (the string `"null"` is a string like any other). */
import type { LiteralNode, LiteralValue, Node } from "../ir.ts"
import { type ParseContext, type SchemaObject, typesOf } from "./context.ts"

const isLiteral = (u: unknown): u is LiteralValue =>
  u === null || typeof u === "string" || typeof u === "boolean" || (typeof u === "number" && Number.isFinite(u))

/** Parses `const` or `enum`; a nullable type (`type: [x, "null"]`) adds `null` to the list. */
export const parseEnum = (schema: SchemaObject, path: string, ctx: ParseContext): Node | undefined => {
  let values: Array<LiteralValue>
  if ("const" in schema) {
    values = [schema.const as LiteralValue]
  } else if (Array.isArray(schema.enum)) {
    values = [...schema.enum] as Array<LiteralValue>
  } else {
    return undefined
  }
  const literals = values.filter(isLiteral)
  if (literals.length !== values.length) ctx.warn(path, "enum values that are objects or arrays are left out")
  if (typesOf(schema).includes("null") || schema.nullable === true) {
    if (!literals.includes(null)) literals.push(null)
  }
  if (literals.length === 0) return { kind: "unknown" }
  return { kind: "literal", values: [...new Set(literals)] }
}

const literalCode = (v: LiteralValue): string => JSON.stringify(v)

/**
 * The Effect Schema expression of a literal list. `null` is not a literal in Effect 4: a list with it is
 * `Schema.NullOr` of the others.
 */
export const literalSchema = (node: LiteralNode): string => {
  const values = node.values.filter((v) => v !== null)
  const literals =
    values.length === 1
      ? `Schema.Literal(${literalCode(values[0]!)})`
      : `Schema.Literals([${values.map(literalCode).join(", ")}])`
  if (values.length === node.values.length) return literals
  return values.length === 0 ? "Schema.Null" : `Schema.NullOr(${literals})`
}

/** The guard expression of a literal list over `value`. */
export const literalGuard = (node: LiteralNode, value: string): string =>
  node.values.map((v) => `${value} === ${literalCode(v)}`).join(" || ")
