/**
 * `schemas.ts`: an Effect Schema per component, with the same name, plus its decoded type (`X`) and its
 * wire type (`XEncoded`). Every struct preserves properties it does not know when decoding.
 */
import { arraySchema } from "../constructs/arrays.ts"
import { unionSchema } from "../constructs/composition.ts"
import { literalSchema } from "../constructs/enums.ts"
import { objectSchema, preservingHelper, recordSchema } from "../constructs/objects.ts"
import { primitiveSchema } from "../constructs/primitives.ts"
import { refSchema } from "../constructs/refs.ts"
import type { Model, Node } from "../ir.ts"
import { someNode } from "../model.ts"
import { header, jsdoc } from "./header.ts"

/** Options every emitter takes. */
export interface EmitOptions {
  /** The source document, as named in the header. */
  readonly source: string
  /** The version in each export's `@since` tag, unless its schema says otherwise (`x-since`). */
  readonly since: string
  /** A component's TypeScript identifier. */
  readonly identifier: (name: string) => string
}

/** The Effect Schema expression of a node. */
export const schemaExpression = (node: Node, model: Model, identifier: (name: string) => string): string => {
  const of = (n: Node): string => schemaExpression(n, model, identifier)
  switch (node.kind) {
    case "ref":
      return refSchema(node, identifier, model.cyclic.has(node.name))
    case "string":
    case "number":
    case "integer":
    case "boolean":
      return primitiveSchema(node)
    case "null":
      return "Schema.Null"
    case "unknown":
      return "Schema.Unknown"
    case "literal":
      return literalSchema(node)
    case "array":
      return arraySchema(node, of)
    case "object":
      return objectSchema(node, of)
    case "record":
      return recordSchema(node, of)
    case "union":
      return unionSchema(node, of)
  }
}

const summary = (name: string, description: string | undefined): string =>
  description ?? `The \`${name}\` schema of the OpenAPI description.`

/** Writes `schemas.ts`. */
export const emitSchemas = (model: Model, options: EmitOptions): string => {
  const { identifier } = options
  const out: Array<string> = [header(options.source), `import * as Schema from "effect/Schema"`]
  if (model.cyclic.size > 0) out.push(`import type { components } from "./openapi.ts"`)
  out.push("")
  if (someNode(model, (n) => n.kind === "object")) out.push(preservingHelper(), "")
  for (const c of model.components) {
    const id = identifier(c.name)
    const since = c.since ?? options.since
    const annotations = [`identifier: ${JSON.stringify(c.name)}`]
    if (c.description !== undefined) annotations.push(`description: ${JSON.stringify(c.description)}`)
    const typed = model.cyclic.has(c.name) ? `: Schema.Codec<components["schemas"][${JSON.stringify(c.name)}]>` : ""
    out.push(
      jsdoc(summary(c.name, c.description), [`@category schemas`, `@since ${since}`]),
      `export const ${id}${typed} = ${schemaExpression(c.node, model, identifier)}.annotate({ ${annotations.join(", ")} })`,
      "",
      jsdoc(`A decoded \`${c.name}\` (see {@link ${id}}).`, [`@category models`, `@since ${since}`]),
      `export type ${id} = typeof ${id}.Type`,
      "",
      jsdoc(`A \`${c.name}\` as it is on the wire, before decoding (see {@link ${id}}).`, [
        `@category models`,
        `@since ${since}`,
      ]),
      `export type ${id}Encoded = typeof ${id}.Encoded`,
      "",
    )
  }
  return out.join("\n")
}
