/**
 * `$ref`: a reference to a component schema (`#/components/schemas/Name`). Emitted as a reference to the
 * component's own Schema and guard, so each shape is written once.
 */
import type { Node, RefNode } from "../ir.ts"
import type { ParseContext, SchemaObject } from "./context.ts"

/** Parses `{ $ref }` into a reference to the component's name. */
export const parseRef = (schema: SchemaObject, path: string, ctx: ParseContext): Node | undefined => {
  if (typeof schema.$ref !== "string") return undefined
  const { name } = ctx.resolve(schema.$ref, path)
  return { kind: "ref", name }
}

/** The Effect Schema expression of a reference; cyclic ones go through `Schema.suspend`. */
export const refSchema = (node: RefNode, identifier: (name: string) => string, cyclic: boolean): string => {
  const id = identifier(node.name)
  return cyclic ? `Schema.suspend(() => ${id})` : id
}

/** The guard expression of a reference: a call to the component's guard. */
export const refGuard = (node: RefNode, value: string, identifier: (name: string) => string): string =>
  `is${identifier(node.name)}(${value})`
