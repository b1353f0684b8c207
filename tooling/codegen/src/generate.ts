/**
 * The generator: an OpenAPI document in, the files of `src/generated/` out.
 */
import { parse as parseYaml } from "yaml"
import { discriminated, sameAs, withAliases } from "./constructs/components.ts"
import { emitSchemas } from "./emit/effect-schemas.ts"
import { emitGuards } from "./emit/guards.ts"
import { emitIndex } from "./emit/index-file.ts"
import { emitTypes } from "./emit/types.ts"
import { buildModel, type Warning } from "./model.ts"
import { identifiers } from "./names.ts"

/** A file to write, relative to the output folder. */
export interface GeneratedFile {
  readonly path: string
  readonly contents: string
}

/** What the generator needs besides the document. */
export interface GenerateOptions {
  /** How the source is named in each file's header (a path relative to the repository). */
  readonly source: string
  /** The `@since` version; defaults to the document's `info.version`. */
  readonly since?: string
}

/** The generated files, and what the generator had to approximate. */
export interface GenerateResult {
  readonly files: ReadonlyArray<GeneratedFile>
  readonly warnings: ReadonlyArray<Warning>
}

/** Parses a YAML (or JSON) OpenAPI document. */
export const parseDocument = (text: string): object => {
  const doc: unknown = parseYaml(text)
  if (typeof doc !== "object" || doc === null) throw new Error("the OpenAPI document is not an object")
  return doc
}

/**
 * One document out of several: the first, with the component schemas of the others added. Throws on a schema name
 * defined twice, so that our own schemas never silently replace the derived ones.
 */
export const mergeDocuments = (documents: ReadonlyArray<object>): object => {
  const [first, ...rest] = documents
  if (first === undefined) throw new Error("no OpenAPI document to generate from")
  const merged = structuredClone(first) as { components?: { schemas?: Record<string, unknown> } }
  const schemas: Record<string, unknown> = { ...(merged.components?.schemas ?? {}) }
  for (const doc of rest) {
    const more = (doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {}
    for (const [name, schema] of Object.entries(more)) {
      if (name in schemas) throw new Error(`the schema ${name} is defined in two of the descriptions`)
      schemas[name] = schema
    }
  }
  merged.components = { ...merged.components, schemas }
  return merged
}

/** Generates types, Effect Schemas, guards and an index from a parsed document. */
export const generate = async (document: object, options: GenerateOptions): Promise<GenerateResult> => {
  const { model: copies, warnings } = buildModel(document)
  // A schema written under several names is written once (types, Schemas, guards), the other names aliased to it.
  const order = Object.keys(
    (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {},
  )
  const aliased = withAliases(document, sameAs(copies, order, discriminated(document)))
  const { model } = buildModel(aliased)
  const info = (document as { info?: { version?: unknown } }).info
  const since = options.since ?? (typeof info?.version === "string" ? info.version : "0.0.0")
  const identifier = identifiers(model.components.map((c) => c.name))
  const emit = { source: options.source, since, identifier }
  return {
    files: [
      { path: "openapi.ts", contents: await emitTypes(aliased, options.source) },
      { path: "schemas.ts", contents: emitSchemas(model, emit) },
      { path: "guards.ts", contents: emitGuards(model, emit) },
      { path: "index.ts", contents: emitIndex(options.source, since) },
    ],
    warnings,
  }
}
