/**
 * From an OpenAPI document to the model the emitters read: every component schema parsed, ordered so that
 * each comes after the components it uses, and reference cycles found.
 */
import { isSchemaObject, type ParseContext } from "./constructs/context.ts"
import { parseSchema } from "./constructs/schema.ts"
import type { Component, Model, Node } from "./ir.ts"

/** Something the generator could not express exactly, with the JSON pointer where it happened. */
export interface Warning {
  readonly path: string
  readonly message: string
}

const refPrefix = "#/components/schemas/"

const unescapePointer = (s: string): string => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~")

/** Parses the component schemas of a document. Throws on a `$ref` that points nowhere. */
export const buildModel = (document: unknown): { readonly model: Model; readonly warnings: ReadonlyArray<Warning> } => {
  const doc = isSchemaObject(document) ? document : {}
  const components = isSchemaObject(doc.components) ? doc.components : {}
  const schemas = isSchemaObject(components.schemas) ? components.schemas : {}
  const warnings: Array<Warning> = []
  const ctx: ParseContext = {
    parse: (schema, path) => parseSchema(schema, path, ctx),
    resolve: (ref, path) => {
      if (!ref.startsWith(refPrefix)) throw new Error(`${path}: only local component refs are supported, got ${ref}`)
      const name = unescapePointer(ref.slice(refPrefix.length))
      if (!(name in schemas)) throw new Error(`${path}: $ref ${ref} points to no component schema`)
      return { name, schema: schemas[name] }
    },
    warn: (path, message) => warnings.push({ path, message }),
  }
  const parsed = new Map<string, Component>()
  for (const [name, schema] of Object.entries(schemas)) {
    const description =
      isSchemaObject(schema) && typeof schema.description === "string" ? schema.description : undefined
    const since = isSchemaObject(schema) && typeof schema["x-since"] === "string" ? schema["x-since"] : undefined
    const node = parseSchema(schema, `${refPrefix}${name}`, ctx)
    parsed.set(name, {
      name,
      node,
      ...(description === undefined ? {} : { description }),
      ...(since === undefined ? {} : { since }),
    })
  }
  return { model: order(parsed), warnings }
}

/** The nodes directly inside a node (not through references): the one walk every search over nodes shares. */
export const childrenOf = (node: Node): ReadonlyArray<Node> => {
  switch (node.kind) {
    case "array":
      return [node.items]
    case "record":
      return [node.values]
    case "object":
      return node.properties.map((p) => p.node)
    case "union":
      return node.members
    default:
      return []
  }
}

/** The names of the components a node refers to. */
export const refsOf = (node: Node, out: Set<string> = new Set()): Set<string> => {
  if (node.kind === "ref") out.add(node.name)
  for (const child of childrenOf(node)) refsOf(child, out)
  return out
}

const someIn = (node: Node, test: (node: Node) => boolean): boolean =>
  test(node) || childrenOf(node).some((child) => someIn(child, test))

/** Tells whether any node of any component, at any depth, satisfies `test`. */
export const someNode = (model: Model, test: (node: Node) => boolean): boolean =>
  model.components.some((c) => someIn(c.node, test))

const order = (components: ReadonlyMap<string, Component>): Model => {
  const ordered: Array<Component> = []
  const cyclic = new Set<string>()
  const state = new Map<string, "visiting" | "done">()
  const stack: Array<string> = []
  const visit = (name: string): void => {
    const s = state.get(name)
    if (s === "done") return
    if (s === "visiting") {
      for (const n of stack.slice(stack.indexOf(name))) cyclic.add(n)
      return
    }
    state.set(name, "visiting")
    stack.push(name)
    const c = components.get(name)!
    for (const dep of [...refsOf(c.node)].sort()) visit(dep)
    stack.pop()
    state.set(name, "done")
    ordered.push(c)
  }
  for (const name of components.keys()) visit(name)
  return { components: ordered, cyclic }
}
