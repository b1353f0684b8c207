/**
 * fast-check arbitraries built by walking an OpenAPI description (not the generated code): `valid` makes values
 * the description allows (nullable fields null and absent, every enum value, every union member, optional
 * properties present and absent, numbers within their bounds, strings within their lengths and matching their
 * `pattern`); `invalid` makes values it refuses (a wrong type at one field, a missing required property, a value
 * outside an enum, a number out of bounds, a string too short, too long or not matching, too few items).
 */
import fc from "fast-check"

type Json = { readonly [key: string]: unknown }

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/** The component schemas of the description(s), by name. */
export type Components = ReadonlyMap<string, unknown>

/** Below this depth, optional properties are left out and arrays made as short as allowed (recursive schemas). */
const maxDepth = 6

const resolve = (components: Components, schema: unknown): unknown => {
  if (!isRecord(schema) || typeof schema.$ref !== "string") return schema
  const name = schema.$ref.replace("#/components/schemas/", "")
  const target = components.get(name)
  if (target === undefined) throw new Error(`$ref ${schema.$ref} points to no component`)
  return target
}

const typesOf = (s: Json): ReadonlyArray<string> =>
  typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? (s.type as Array<string>) : []

const members = (s: Json): ReadonlyArray<unknown> | undefined =>
  Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined

/** `allOf` merged into one object schema (properties and required lists of every member). */
const mergeAllOf = (components: Components, s: Json): Json => {
  const properties: Record<string, unknown> = {}
  const required: Array<string> = []
  for (const m of s.allOf as ReadonlyArray<unknown>) {
    const r = resolve(components, m)
    if (!isRecord(r)) continue
    const o = Array.isArray(r.allOf) ? mergeAllOf(components, r) : r
    Object.assign(properties, isRecord(o.properties) ? o.properties : {})
    if (Array.isArray(o.required)) required.push(...(o.required as Array<string>))
  }
  return { type: "object", properties, required }
}

const num = (u: unknown): number | undefined => (typeof u === "number" ? u : undefined)

/** Values the schema allows. */
export const valid = (components: Components, schema: unknown, depth = 0): fc.Arbitrary<unknown> => {
  const s = resolve(components, schema)
  if (!isRecord(s)) return fc.jsonValue({ maxDepth: 2 })
  if (Array.isArray(s.allOf)) return valid(components, mergeAllOf(components, s), depth)
  const ms = members(s)
  if (ms !== undefined) return fc.oneof(...ms.map((m) => valid(components, m, depth + 1)))
  if ("const" in s) return fc.constant(s.const)
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as Array<unknown>))
  let types = typesOf(s)
  if (types.length === 0) {
    if (s.properties !== undefined || s.additionalProperties !== undefined) types = ["object"]
    else if (s.items !== undefined) types = ["array"]
    else return fc.jsonValue({ maxDepth: 2 })
  }
  return fc.oneof(...types.map((t) => validOfType(components, s, t, depth)))
}

const validOfType = (components: Components, s: Json, type: string, depth: number): fc.Arbitrary<unknown> => {
  switch (type) {
    case "null":
      return fc.constant(null)
    case "boolean":
      return fc.boolean()
    case "string": {
      const minLength = num(s.minLength) ?? 0
      const maxLength = num(s.maxLength) ?? 12
      if (typeof s.pattern !== "string") return fc.string({ minLength, maxLength })
      return fc
        .stringMatching(new RegExp(s.pattern, "u"))
        .map((v) => v.slice(0, Math.max(minLength, maxLength)))
        .filter((v) => v.length >= minLength && new RegExp(s.pattern as string, "u").test(v))
    }
    case "integer": {
      const min = num(s.minimum) ?? (num(s.exclusiveMinimum) === undefined ? -1e6 : num(s.exclusiveMinimum)! + 1)
      const max = num(s.maximum) ?? (num(s.exclusiveMaximum) === undefined ? 1e6 : num(s.exclusiveMaximum)! - 1)
      return fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    }
    case "number":
      return fc.double({
        min: num(s.minimum) ?? num(s.exclusiveMinimum) ?? -1e6,
        max: num(s.maximum) ?? num(s.exclusiveMaximum) ?? 1e6,
        minExcluded: num(s.minimum) === undefined && num(s.exclusiveMinimum) !== undefined,
        maxExcluded: num(s.maximum) === undefined && num(s.exclusiveMaximum) !== undefined,
        noNaN: true,
        noDefaultInfinity: true,
      })
    case "array": {
      const minLength = num(s.minItems) ?? 0
      const maxLength = Math.max(minLength, Math.min(num(s.maxItems) ?? 3, depth >= maxDepth ? minLength : 3))
      return fc.array(valid(components, s.items, depth + 1), { minLength, maxLength })
    }
    case "object": {
      const properties = isRecord(s.properties) ? s.properties : {}
      const names = Object.keys(properties)
      if (names.length === 0) {
        const extra = s.additionalProperties
        const values = isRecord(extra) ? valid(components, extra, depth + 1) : fc.jsonValue({ maxDepth: 1 })
        return fc.dictionary(fc.string({ maxLength: 6 }), values, { maxKeys: depth >= maxDepth ? 0 : 3 })
      }
      const required = new Set(Array.isArray(s.required) ? (s.required as Array<string>) : [])
      const shown = depth >= maxDepth ? names.filter((n) => required.has(n)) : names
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const n of shown) model[n] = valid(components, properties[n], depth + 1)
      return fc.record(model, { requiredKeys: shown.filter((n) => required.has(n)) })
    }
    default:
      throw new Error(`unknown type ${type}`)
  }
}

/** A value of each JSON type, to put where a schema does not allow that type. */
const ofType: ReadonlyArray<readonly [string, unknown]> = [
  ["string", "__wrong__"],
  ["number", 1.5],
  ["integer", 7],
  ["boolean", true],
  ["null", null],
  ["array", [1]],
  ["object", { wrong: 1 }],
]

/** The JSON types a schema accepts some value of (`any` when it accepts every value). */
const acceptedTypes = (components: Components, schema: unknown, seen: Set<unknown> = new Set()): Set<string> => {
  const s = resolve(components, schema)
  if (!isRecord(s) || seen.has(s)) return new Set(["any"])
  seen.add(s)
  if (Array.isArray(s.allOf)) return new Set(["object"])
  const ms = members(s)
  if (ms !== undefined) {
    const out = new Set<string>()
    for (const m of ms) for (const t of acceptedTypes(components, m, new Set(seen))) out.add(t)
    return out
  }
  const literals = "const" in s ? [s.const] : Array.isArray(s.enum) ? (s.enum as Array<unknown>) : undefined
  if (literals !== undefined) {
    return new Set(literals.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : `literal:${typeof v}`)))
  }
  const types = typesOf(s)
  if (types.length > 0) return new Set(types.includes("number") ? [...types, "integer"] : types)
  if (s.properties !== undefined || s.additionalProperties !== undefined) return new Set(["object"])
  if (s.items !== undefined) return new Set(["array"])
  return new Set(["any"])
}

/** Whether a value of JSON type `t` (one of ofType's) may be accepted by a schema accepting `accepted`. */
const mayAccept = (accepted: Set<string>, t: string): boolean =>
  accepted.has("any") ||
  accepted.has(t) ||
  (t === "integer" && accepted.has("number")) ||
  (t === "number" && accepted.has("number")) ||
  (t === "string" && accepted.has("literal:string")) ||
  ((t === "number" || t === "integer") && accepted.has("literal:number")) ||
  (t === "boolean" && accepted.has("literal:boolean"))

/** Values the schema refuses, or `undefined` when it accepts every value. */
export const invalid = (components: Components, schema: unknown, depth = 0): fc.Arbitrary<unknown> | undefined => {
  const s = resolve(components, schema)
  if (!isRecord(s)) return undefined
  const accepted = acceptedTypes(components, s)
  if (accepted.has("any")) return undefined
  const options: Array<fc.Arbitrary<unknown>> = []
  // A value of a type no member accepts (for an integer, a fraction).
  const wrong = ofType.filter(([t]) => !mayAccept(accepted, t)).map(([, v]) => v)
  if (accepted.has("integer") && !accepted.has("number")) wrong.push(2.5)
  if (wrong.length > 0) options.push(fc.constantFrom(...wrong))
  // A string outside every enum, when only enums accept strings.
  if (accepted.has("literal:string") && !accepted.has("string")) options.push(fc.constant("__not_in_the_enum__"))
  // Deeper mutations only where one schema (no union) decides.
  if (members(s) === undefined && !Array.isArray(s.allOf) && depth < maxDepth) {
    const types = typesOf(s)
    if (types.length === 1 || (types.length === 2 && types.includes("null"))) {
      const t = types.find((x) => x !== "null") ?? types[0]
      if (t === "integer" || t === "number") {
        const min = num(s.minimum)
        const max = num(s.maximum)
        const xmin = num(s.exclusiveMinimum)
        const xmax = num(s.exclusiveMaximum)
        if (min !== undefined) options.push(fc.constant(min - 1))
        if (max !== undefined) options.push(fc.constant(max + 1))
        if (xmin !== undefined) options.push(fc.constant(xmin))
        if (xmax !== undefined) options.push(fc.constant(xmax))
      }
      if (t === "string" && num(s.minLength) !== undefined && num(s.minLength)! > 0) {
        options.push(fc.constant("".padEnd(num(s.minLength)! - 1, "a")))
      }
      if (t === "string" && num(s.maxLength) !== undefined) {
        options.push(fc.constant("".padEnd(num(s.maxLength)! + 1, "a")))
      }
      if (t === "string" && typeof s.pattern === "string") {
        const pattern = new RegExp(s.pattern, "u")
        const outside = ["", " ", "with space", "é", "a/b", "a.b"].filter((v) => !pattern.test(v))
        if (outside.length > 0) options.push(fc.constantFrom(...outside))
      }
      if (t === "array") {
        const bad = invalid(components, s.items, depth + 1)
        const minItems = num(s.minItems) ?? 0
        if (bad !== undefined) {
          options.push(
            fc
              .tuple(validOfType(components, s, "array", depth), bad)
              .map(([arr, b]) => [b, ...(arr as Array<unknown>)].slice(0, Math.max(1, num(s.maxItems) ?? 4))),
          )
        }
        if (minItems > 0) options.push(fc.constant([]))
      }
      if (t === "object" && isRecord(s.properties)) {
        const required = Array.isArray(s.required) ? (s.required as Array<string>) : []
        for (const name of Object.keys(s.properties)) {
          const bad = invalid(components, s.properties[name], depth + 1)
          if (bad !== undefined) {
            options.push(
              fc
                .tuple(validOfType(components, s, "object", depth), bad)
                .map(([o, b]) => ({ ...(o as Json), [name]: b })),
            )
          }
        }
        for (const name of required) {
          options.push(
            validOfType(components, s, "object", depth).map((o) => {
              const { [name]: _, ...rest } = o as Json
              return rest
            }),
          )
        }
      }
    }
  }
  return options.length === 0 ? undefined : fc.oneof(...options)
}
