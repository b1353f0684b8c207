/**
 * `type: string | number | integer | boolean | null`, with their bounds: `minimum`, `maximum`, `exclusiveMinimum`
 * and `exclusiveMaximum` on numbers, `minLength`, `maxLength` and `pattern` on strings. `integer` means a safe
 * integer, as `Schema.Int` does. `pattern` is an ECMAScript regular expression, unanchored as JSON Schema says
 * (a pattern that means the whole string says `^…$`), read with the `u` flag. `format` is documentation only:
 * servers and clients disagree on it.
 */
import type { Node, PrimitiveNode } from "../ir.ts"
import type { SchemaObject } from "./context.ts"

const primitiveTypes = new Set(["string", "number", "integer", "boolean"])

type Bound = "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "minLength" | "maxLength"

const numberBounds: ReadonlyArray<Bound> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
const stringBounds: ReadonlyArray<Bound> = ["minLength", "maxLength"]

/** Parses one primitive `type` of a schema, with the bounds that apply to it. */
export const parsePrimitive = (type: string, schema: SchemaObject): Node | undefined => {
  if (type === "null") return { kind: "null" }
  if (!primitiveTypes.has(type)) return undefined
  const kind = type as PrimitiveNode["kind"]
  const bounds = kind === "string" ? stringBounds : kind === "boolean" ? [] : numberBounds
  const node: { -readonly [K in keyof PrimitiveNode]: PrimitiveNode[K] } = { kind }
  for (const b of bounds) {
    const v = schema[b]
    if (typeof v === "number" && Number.isFinite(v)) node[b] = v
  }
  if (kind === "string" && typeof schema.pattern === "string") node.pattern = checkedPattern(schema.pattern)
  return node
}

/** A `pattern`, once it is known to compile as a `u`-flag regular expression (throws naming it otherwise). */
const checkedPattern = (pattern: string): string => {
  try {
    new RegExp(pattern, "u")
  } catch (e) {
    throw new Error(`pattern ${JSON.stringify(pattern)} is not an ECMAScript regular expression: ${String(e)}`)
  }
  return pattern
}

/** A regular expression literal of a `pattern` (a `/` in it escaped). */
const regexLiteral = (pattern: string): string => `/${pattern.replace(/(?<!\\)\//g, "\\/")}/u`

const base = { string: "Schema.String", number: "Schema.Number", integer: "Schema.Int", boolean: "Schema.Boolean" }

/** The Effect Schema checks of a node's bounds, in a fixed order. */
const schemaChecks = (node: PrimitiveNode): Array<string> => {
  const checks: Array<string> = []
  if (node.minimum !== undefined) checks.push(`Schema.isGreaterThanOrEqualTo(${node.minimum})`)
  if (node.exclusiveMinimum !== undefined) checks.push(`Schema.isGreaterThan(${node.exclusiveMinimum})`)
  if (node.maximum !== undefined) checks.push(`Schema.isLessThanOrEqualTo(${node.maximum})`)
  if (node.exclusiveMaximum !== undefined) checks.push(`Schema.isLessThan(${node.exclusiveMaximum})`)
  if (node.minLength !== undefined) checks.push(`Schema.isMinLength(${node.minLength})`)
  if (node.maxLength !== undefined) checks.push(`Schema.isMaxLength(${node.maxLength})`)
  if (node.pattern !== undefined) checks.push(`Schema.isPattern(${regexLiteral(node.pattern)})`)
  return checks
}

/** The Effect Schema expression of a primitive. */
export const primitiveSchema = (node: PrimitiveNode): string => {
  const checks = schemaChecks(node)
  return checks.length === 0 ? base[node.kind] : `${base[node.kind]}.check(${checks.join(", ")})`
}

/**
 * The guard expression of a primitive over `value` (an identifier). `regex` names a pattern's regular expression
 * literal where the guard can reach it (the guards file hoists it to a module constant, so a call allocates nothing).
 */
export const primitiveGuard = (
  node: PrimitiveNode,
  value: string,
  regex: (literal: string) => string = (literal) => literal,
): string => {
  const checks: Array<string> = []
  if (node.kind === "integer") checks.push(`typeof ${value} === "number"`, `Number.isSafeInteger(${value})`)
  else checks.push(`typeof ${value} === ${JSON.stringify(node.kind)}`)
  if (node.minimum !== undefined) checks.push(`${value} >= ${node.minimum}`)
  if (node.exclusiveMinimum !== undefined) checks.push(`${value} > ${node.exclusiveMinimum}`)
  if (node.maximum !== undefined) checks.push(`${value} <= ${node.maximum}`)
  if (node.exclusiveMaximum !== undefined) checks.push(`${value} < ${node.exclusiveMaximum}`)
  if (node.minLength !== undefined) checks.push(`${value}.length >= ${node.minLength}`)
  if (node.maxLength !== undefined) checks.push(`${value}.length <= ${node.maxLength}`)
  if (node.pattern !== undefined) checks.push(`${regex(regexLiteral(node.pattern))}.test(${value})`)
  return checks.join(" && ")
}
