/**
 * `type: array` with `items` (without `items`, any elements), `minItems` and `maxItems`.
 */
import type { ArrayNode, Node } from "../ir.ts"
import type { ParseContext, SchemaObject } from "./context.ts"

const count = (u: unknown): number | undefined => (typeof u === "number" && Number.isSafeInteger(u) ? u : undefined)

/** Parses an array schema. */
export const parseArray = (schema: SchemaObject, path: string, ctx: ParseContext): Node => {
  const minItems = count(schema.minItems)
  const maxItems = count(schema.maxItems)
  return {
    kind: "array",
    items: schema.items === undefined ? { kind: "unknown" } : ctx.parse(schema.items, `${path}/items`),
    ...(minItems === undefined ? {} : { minItems }),
    ...(maxItems === undefined ? {} : { maxItems }),
  }
}

/** The Effect Schema expression of an array. */
export const arraySchema = (node: ArrayNode, schemaOf: (node: Node) => string): string => {
  const checks: Array<string> = []
  if (node.minItems !== undefined) checks.push(`Schema.isMinLength(${node.minItems})`)
  if (node.maxItems !== undefined) checks.push(`Schema.isMaxLength(${node.maxItems})`)
  const array = `Schema.Array(${schemaOf(node.items)})`
  return checks.length === 0 ? array : `${array}.check(${checks.join(", ")})`
}

/** The statements of an array guard over `u`: a loop, no allocation. */
export const arrayGuardBody = (node: ArrayNode, guardOf: (node: Node, value: string) => string): string => {
  const lines = ["if (!Array.isArray(u)) return false"]
  if (node.minItems !== undefined) lines.push(`if (u.length < ${node.minItems}) return false`)
  if (node.maxItems !== undefined) lines.push(`if (u.length > ${node.maxItems}) return false`)
  if (node.items.kind === "unknown") return [...lines, "return true"].join("\n  ")
  return [
    ...lines,
    "for (let i = 0; i < u.length; i++) {",
    "  const e: unknown = u[i]",
    `  if (!(${guardOf(node.items, "e")})) return false`,
    "}",
    "return true",
  ].join("\n  ")
}
