/**
 * The Schema Object: decides which construct a JSON Schema is and hands it over. The order matters:
 * `$ref` first, then composition (`allOf`, `anyOf`/`oneOf`), then `const`/`enum`, then `type`.
 */
import type { Node } from "../ir.ts"
import { parseArray } from "./arrays.ts"
import { parseAllOf, parseUnion, union } from "./composition.ts"
import { isSchemaObject, type ParseContext, typesOf } from "./context.ts"
import { parseEnum } from "./enums.ts"
import { parseObject } from "./objects.ts"
import { parsePrimitive } from "./primitives.ts"
import { parseRef } from "./refs.ts"

/** Parses any schema into the IR. */
export const parseSchema = (schema: unknown, path: string, ctx: ParseContext): Node => {
  if (!isSchemaObject(schema)) {
    if (schema === false) ctx.warn(path, "the schema `false` (nothing is valid) is read as any value")
    return { kind: "unknown" }
  }
  const composed =
    parseRef(schema, path, ctx) ??
    parseAllOf(schema, path, ctx) ??
    parseUnion(schema, path, ctx) ??
    parseEnum(schema, path, ctx)
  if (composed !== undefined) return composed

  let types = typesOf(schema)
  if (types.length === 0) {
    if (schema.properties !== undefined || schema.additionalProperties !== undefined) types = ["object"]
    else if (schema.items !== undefined) types = ["array"]
    else return { kind: "unknown" }
  }
  const members = types.map((type): Node => {
    if (type === "object") return parseObject(schema, path, ctx)
    if (type === "array") return parseArray(schema, path, ctx)
    const primitive = parsePrimitive(type, schema)
    if (primitive !== undefined) return primitive
    ctx.warn(path, `unknown type ${JSON.stringify(type)} is read as any value`)
    return { kind: "unknown" }
  })
  if (schema.nullable === true) members.push({ kind: "null" })
  return union(members)
}
