/**
 * `type: array` with `items`; without `items`, any elements.
 */
import type { ArrayNode, Node } from "../ir.ts"
import type { ParseContext, SchemaObject } from "./context.ts"

/** Parses an array schema. */
export const parseArray = (schema: SchemaObject, path: string, ctx: ParseContext): Node => ({
  kind: "array",
  items: schema.items === undefined ? { kind: "unknown" } : ctx.parse(schema.items, `${path}/items`),
})

/** The Effect Schema expression of an array. */
export const arraySchema = (node: ArrayNode, schemaOf: (node: Node) => string): string =>
  `Schema.Array(${schemaOf(node.items)})`

/** The statements of an array guard over `u`: a loop, no allocation. */
export const arrayGuardBody = (node: ArrayNode, guardOf: (node: Node, value: string) => string): string => {
  if (node.items.kind === "unknown") return "return Array.isArray(u)"
  return [
    "if (!Array.isArray(u)) return false",
    "for (let i = 0; i < u.length; i++) {",
    "  const e: unknown = u[i]",
    `  if (!(${guardOf(node.items, "e")})) return false`,
    "}",
    "return true",
  ].join("\n  ")
}
