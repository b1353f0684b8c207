/**
 * `guards.ts`: compiled validators. For each component, `isX(u): u is XEncoded`, a plain function that checks
 * the wire form without allocating (the same verdict as `Schema.is(Schema.toEncoded(X))`). Nested objects and arrays
 * get private helper functions, so every check is a loop or a comparison.
 */
import { arrayGuardBody } from "../constructs/arrays.ts"
import { unionGuard } from "../constructs/composition.ts"
import { literalGuard } from "../constructs/enums.ts"
import { objectGuardBody, recordGuardBody } from "../constructs/objects.ts"
import { primitiveGuard } from "../constructs/primitives.ts"
import { refGuard } from "../constructs/refs.ts"
import type { Model, Node } from "../ir.ts"
import type { EmitOptions } from "./effect-schemas.ts"
import { header, jsdoc } from "./header.ts"

interface GuardWriter {
  readonly expression: (node: Node, value: string) => string
  readonly helpers: Array<string>
}

const guardWriter = (identifier: (name: string) => string, owner: string): GuardWriter => {
  const helpers: Array<string> = []
  let counter = 0
  const hoist = (body: string): string => {
    const name = `${owner}$${counter++}`
    helpers.push(`function ${name}(u: unknown): boolean {\n  ${body}\n}`)
    return name
  }
  const expression = (node: Node, value: string): string => {
    switch (node.kind) {
      case "ref":
        return refGuard(node, value, identifier)
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return primitiveGuard(node, value, (literal) => {
          const name = `${owner}$${counter++}`
          helpers.push(`const ${name} = ${literal}`)
          return name
        })
      case "null":
        return `${value} === null`
      case "unknown":
        return "true"
      case "literal":
        return literalGuard(node, value)
      case "array":
        return `${hoist(arrayGuardBody(node, expression))}(${value})`
      case "object":
        return `${hoist(objectGuardBody(node, expression))}(${value})`
      case "record":
        return `${hoist(recordGuardBody(node, expression))}(${value})`
      case "union":
        return unionGuard(node, value, expression)
    }
  }
  return { expression, helpers }
}

/** The body of a component's guard over `u`. */
const guardBody = (node: Node, writer: GuardWriter): string => {
  switch (node.kind) {
    case "array":
      return arrayGuardBody(node, writer.expression)
    case "object":
      return objectGuardBody(node, writer.expression)
    case "record":
      return recordGuardBody(node, writer.expression)
    default:
      return `return ${writer.expression(node, "u")}`
  }
}

/** Writes `guards.ts`. */
export const emitGuards = (model: Model, options: EmitOptions): string => {
  const { identifier } = options
  const imported: Array<string> = []
  const out: Array<string> = []
  for (const c of model.components) {
    const id = identifier(c.name)
    const since = c.since ?? options.since
    const writer = guardWriter(identifier, `is${id}`)
    const body = guardBody(c.node, writer)
    imported.push(`${id}Encoded`)
    out.push(
      jsdoc(
        `Tells whether a value is a \`${c.name}\` on the wire: a compiled check with the same verdict as\n\`Schema.is(Schema.toEncoded(${id}))\`, without allocating.`,
        [`@category guards`, `@since ${since}`],
      ),
      `export function is${id}(u: unknown): u is ${id}Encoded {\n  ${body}\n}`,
      "",
      ...writer.helpers.flatMap((h) => [h, ""]),
    )
  }
  return [header(options.source), `import type { ${imported.sort().join(", ")} } from "./schemas.ts"`, "", ...out].join(
    "\n",
  )
}
