/**
 * What every construct sees while parsing: the JSON Schema object it is given, and a way back to the
 * parser for its sub-schemas.
 */
import type { Node } from "../ir.ts"

/** A JSON Schema object as it appears in an OpenAPI 3.x document (loosely typed: documents vary). */
export type SchemaObject = { readonly [keyword: string]: unknown }

export interface ParseContext {
  /** Parses a sub-schema (`items`, a property, a member of `anyOf`, ...). */
  readonly parse: (schema: unknown, path: string) => Node
  /** Follows a `$ref` to its component: its name and its schema. */
  readonly resolve: (ref: string, path: string) => { readonly name: string; readonly schema: unknown }
  /** Reports something the generator had to approximate; never fatal. */
  readonly warn: (path: string, message: string) => void
}

/** Tells whether a value is a schema object (as opposed to a boolean schema or garbage). */
export const isSchemaObject = (u: unknown): u is SchemaObject =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** The `type` keyword as a list (`type: x` and `type: [x, y]` alike). */
export const typesOf = (schema: SchemaObject): ReadonlyArray<string> => {
  const t = schema.type
  if (typeof t === "string") return [t]
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string")
  return []
}

/** Quotes a string as a TypeScript string literal. */
export const quote = (s: string): string => JSON.stringify(s)

/** Tells whether a property name can be written after a dot. */
export const isIdentifier = (s: string): boolean => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s)

/** A property key as written in an object literal. */
export const propertyKey = (s: string): string => (isIdentifier(s) ? s : quote(s))
