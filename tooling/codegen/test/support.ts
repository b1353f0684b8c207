/** Helpers for the generator's tests: parse one schema in a tiny document, and emit what it becomes. */
import { schemaExpression } from "../src/emit/effect-schemas.ts"
import type { Model, Node } from "../src/ir.ts"
import { buildModel } from "../src/model.ts"
import { identifiers } from "../src/names.ts"

/** A document whose only components are `components` plus `Subject: schema`. */
export const documentOf = (schema: unknown, components: Record<string, unknown> = {}): object => ({
  openapi: "3.1.0",
  info: { title: "t", version: "9.9.9" },
  paths: {},
  components: { schemas: { ...components, Subject: schema } },
})

/** Parses `schema` (with sibling components) and returns its node, its Schema expression and the model. */
export const parsed = (
  schema: unknown,
  components: Record<string, unknown> = {},
): { node: Node; schema: string; model: Model; warnings: ReadonlyArray<string> } => {
  const { model, warnings } = buildModel(documentOf(schema, components))
  const subject = model.components.find((c) => c.name === "Subject")!
  const identifier = identifiers(model.components.map((c) => c.name))
  return {
    node: subject.node,
    schema: schemaExpression(subject.node, model, identifier),
    model,
    warnings: warnings.map((w) => w.message),
  }
}
