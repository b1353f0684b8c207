/**
 * The Components Object: finds the component schemas that are one schema under several names (upstream writes the
 * same body and response once per deployment kind: `ServerlessX`, `DedicatedX`, `ContainerX`), so that each is
 * written once and the other names become aliases of it. Every name stays, with the same type.
 */
import type { Model, Node } from "../ir.ts"
import { isSchemaObject, type SchemaObject } from "./context.ts"

/**
 * For each component that is the same schema as another, the name of the one written in full (its canonical: the
 * shortest name of its class, then the first in the document's order). Two components are the same when their nodes
 * are equal but for descriptions, every reference read as the class of the component it names (the coarsest such
 * partition, so that two copies of a cycle are the same too). A component that is only a `$ref` is an alias already
 * and is left as it is.
 */
export const sameAs = (
  model: Model,
  order: ReadonlyArray<string>,
  written: ReadonlySet<string> = new Set(),
): Map<string, string> => {
  const nodes = new Map(model.components.filter((c) => c.node.kind !== "ref").map((c) => [c.name, c.node]))
  let classOf = new Map<string, number>([...nodes.keys()].map((name) => [name, 0]))
  let count = 1
  const key = (node: Node): string =>
    JSON.stringify(node, (k, v: unknown) => {
      if (k === "description") return undefined
      if (isSchemaObject(v) && v.kind === "ref") return { ref: classOf.get(v.name as string) ?? v.name }
      return v
    })
  for (;;) {
    const keys = new Map<string, number>()
    const next = new Map<string, number>()
    for (const [name, node] of nodes) {
      // The previous class is part of the key, so classes only ever split.
      const k = `${classOf.get(name)}:${key(node)}`
      if (!keys.has(k)) keys.set(k, keys.size)
      next.set(name, keys.get(k)!)
    }
    classOf = next
    if (keys.size === count) break
    count = keys.size
  }
  const ranked = order.filter((name) => nodes.has(name)).sort((a, b) => a.length - b.length)
  const first = new Map<number, string>()
  const canonical = new Map<string, string>()
  for (const name of [...ranked.filter((n) => written.has(n)), ...ranked.filter((n) => !written.has(n))]) {
    const c = classOf.get(name)!
    const f = first.get(c)
    if (f === undefined) first.set(c, name)
    else if (!written.has(name)) canonical.set(name, f)
  }
  return canonical
}

const refPrefix = "#/components/schemas/"

/**
 * The components a discriminated union names (a member of a `oneOf`/`anyOf` with a `discriminator`, or a target of its
 * `mapping`): openapi-typescript reads the discriminator's value from the member's own name, so these stay written in
 * full (they may still be the canonical of others).
 */
export const discriminated = (document: unknown): Set<string> => {
  const out = new Set<string>()
  const nameOf = (ref: unknown): void => {
    if (typeof ref === "string" && ref.startsWith(refPrefix)) out.add(unescapePointer(ref.slice(refPrefix.length)))
  }
  const walk = (u: unknown): void => {
    if (Array.isArray(u)) for (const x of u) walk(x)
    if (!isSchemaObject(u)) return
    if (isSchemaObject(u.discriminator)) {
      for (const ref of Object.values(isSchemaObject(u.discriminator.mapping) ? u.discriminator.mapping : {}))
        nameOf(ref)
      for (const m of [u.oneOf, u.anyOf].flatMap((x) => (Array.isArray(x) ? x : []))) {
        if (isSchemaObject(m)) nameOf(m.$ref)
      }
    }
    for (const v of Object.values(u)) walk(v)
  }
  walk(isSchemaObject(document) && isSchemaObject(document.components) ? document.components.schemas : undefined)
  return out
}
const escapePointer = (name: string): string => name.replace(/~/g, "~0").replace(/\//g, "~1")
const unescapePointer = (s: string): string => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~")

/** The descriptions inside `schema` that differ from those at the same place in `other`, by property path. */
const descriptionsApart = (schema: unknown, other: unknown, path: string, out: Array<string>): Array<string> => {
  if (!isSchemaObject(schema) || !isSchemaObject(other) || schema.$ref !== undefined) return out
  if (path !== "" && typeof schema.description === "string" && schema.description !== other.description) {
    out.push(`\`${path}\`: ${schema.description.trim().replace(/\s*\n\s*/g, " ")}`)
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === "description" || !(k in other)) continue
    const w = other[k]
    if (k === "properties" && isSchemaObject(v) && isSchemaObject(w)) {
      for (const p of Object.keys(v)) descriptionsApart(v[p], w[p], path === "" ? p : `${path}.${p}`, out)
    } else if (k === "items") {
      descriptionsApart(v, w, `${path}[]`, out)
    } else if (Array.isArray(v) && Array.isArray(w)) {
      for (const [i, x] of v.entries()) descriptionsApart(x, w[i], path, out)
    } else if (isSchemaObject(v)) descriptionsApart(v, w, path, out)
  }
  return out
}

/**
 * The document with each aliased component replaced by a `$ref` to its canonical, keeping its own `description`,
 * `title` and `x-since` (its JSDoc, its Schema's annotations and its `@since` stay its own). Where a description
 * inside it differs from the canonical's, its description says so, quoting its own.
 */
export const withAliases = (document: object, canonical: ReadonlyMap<string, string>): object => {
  if (canonical.size === 0) return document
  const doc = document as { components?: { schemas?: Record<string, unknown> } }
  const original = doc.components?.schemas ?? {}
  const schemas: Record<string, unknown> = { ...original }
  for (const [name, target] of canonical) {
    const own: SchemaObject = isSchemaObject(original[name]) ? original[name] : {}
    const kept = Object.fromEntries(["title", "x-since"].filter((k) => own[k] !== undefined).map((k) => [k, own[k]]))
    const apart = descriptionsApart(own, original[target], "", [])
    const notes = [
      ...(typeof own.description === "string" ? [own.description] : []),
      ...(apart.length === 0
        ? []
        : [`The same schema as \`${target}\` but for what it says of:`, ...apart.map((a) => `- ${a}`)]),
    ]
    schemas[name] = {
      $ref: `${refPrefix}${escapePointer(target)}`,
      ...kept,
      ...(notes.length === 0 ? {} : { description: notes.join("\n") }),
    }
  }
  return { ...doc, components: { ...doc.components, schemas } }
}
