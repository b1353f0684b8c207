/**
 * Makes a deterministic JSON value that fits a (simple) JSON Schema: used for tool-call arguments and for
 * `response_format` JSON output.
 */
import { intBetween, pick, type Random } from "./prng.ts"
import { words } from "./tokens.ts"
import { isObject, type Json } from "./validate.ts"

/** A JSON value. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | ReadonlyArray<JsonValue>
  | { readonly [k: string]: JsonValue }

const typeOf = (schema: Json): string | undefined => {
  const t = schema.type
  if (typeof t === "string") return t
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === "string" && x !== "null")
  if (isObject(schema.properties)) return "object"
  if (schema.items !== undefined) return "array"
  return undefined
}

/** A value that satisfies `schema`, as far as the mock understands schemas (types, properties, items, enum, const). */
export const sample = (schema: unknown, random: Random, depth = 0): JsonValue => {
  if (!isObject(schema)) return words(random, 2)
  if ("const" in schema) return (schema.const ?? null) as JsonValue
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(random, schema.enum) as JsonValue
  const alternatives = schema.anyOf ?? schema.oneOf
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const first = alternatives.find((a) => !(isObject(a) && a.type === "null")) ?? alternatives[0]
    return sample(first, random, depth)
  }
  switch (typeOf(schema)) {
    case "object": {
      const props = isObject(schema.properties) ? schema.properties : {}
      if (depth > 6) return {}
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v, random, depth + 1)]))
    }
    case "array":
      return depth > 6
        ? []
        : Array.from({ length: intBetween(random, 1, 2) }, () => sample(schema.items, random, depth + 1))
    case "integer":
      return intBetween(random, 0, 100)
    case "number":
      return Math.round(random() * 1000) / 10
    case "boolean":
      return random() < 0.5
    case "null":
      return null
    default:
      return words(random, intBetween(random, 1, 3))
  }
}
