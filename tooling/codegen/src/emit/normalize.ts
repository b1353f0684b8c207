/**
 * The statements that turn a valid wire value into its decoded form in place. Only the `"null"` alias
 * differs between the two forms today; everything else is left untouched.
 */
import { isIdentifier } from "../constructs/context.ts"
import type { Model, Node } from "../ir.ts"
import { childrenOf } from "../model.ts"

/** Tells whether a node, through its references, holds anything whose decoded form differs from the wire's. */
export const needsNormalize = (node: Node, model: Model, seen: Set<string> = new Set()): boolean => {
  switch (node.kind) {
    case "nullAlias":
      return true
    case "ref": {
      if (seen.has(node.name)) return false
      seen.add(node.name)
      const c = model.components.find((x) => x.name === node.name)
      return c !== undefined && needsNormalize(c.node, model, seen)
    }
    default:
      return childrenOf(node).some((child) => needsNormalize(child, model, seen))
  }
}

/**
 * Statements that normalize `value` (an identifier); `assign` writes a replacement where the value came from
 * (its parent's slot, or the variable itself at the top). `guardOf` is the guards' own expression writer: a union
 * normalizes the value as the first member that needs it and accepts it.
 */
export const normalizeStatements = (
  node: Node,
  model: Model,
  identifier: (name: string) => string,
  guardOf: (node: Node, value: string) => string,
  value: string,
  assign: ((expression: string) => string) | undefined,
  depth: number,
): Array<string> => {
  if (!needsNormalize(node, model)) return []
  const nested = (n: Node, v: string, a: ((e: string) => string) | undefined): Array<string> =>
    normalizeStatements(n, model, identifier, guardOf, v, a, depth + 1)
  switch (node.kind) {
    case "nullAlias":
      return assign === undefined ? [] : [`if (${value} === "null") ${assign("null")}`]
    case "ref": {
      // The component may be a bare alias (a string becoming null), so its result is written back.
      const id = identifier(node.name)
      const call = `normalize${id}(${value} as ${id}Encoded)`
      return [assign === undefined ? call : assign(call)]
    }
    case "union": {
      const branches = node.members
        .filter((m) => needsNormalize(m, model))
        .map((m) => {
          const inner =
            m.kind === "nullAlias" ? (assign === undefined ? [] : [assign("null")]) : nested(m, value, assign)
          return `if (${guardOf(m, value)}) {\n${indent(inner)}\n}`
        })
      return [branches.join(" else ")]
    }
    case "object": {
      const o = `o${depth}`
      const lines = [`const ${o} = ${value} as { [key: string]: unknown }`]
      node.properties.forEach((p, i) => {
        if (!needsNormalize(p.node, model)) return
        const v = `v${depth}_${i}`
        const slot = isIdentifier(p.name) ? `${o}.${p.name}` : `${o}[${JSON.stringify(p.name)}]`
        const inner = nested(p.node, v, (e) => `${slot} = ${e}`)
        lines.push(`const ${v} = ${slot}`, `if (${v} !== undefined && ${v} !== null) {\n${indent(inner)}\n}`)
      })
      return [`{\n${indent(lines)}\n}`]
    }
    case "array": {
      const a = `a${depth}`
      const i = `i${depth}`
      const e = `e${depth}`
      const inner = nested(node.items, e, (x) => `${a}[${i}] = ${x}`)
      return [
        `{\n  const ${a} = ${value} as Array<unknown>\n  for (let ${i} = 0; ${i} < ${a}.length; ${i}++) {\n    const ${e} = ${a}[${i}]\n    if (${e} !== null) {\n${indent(inner, 3)}\n    }\n  }\n}`,
      ]
    }
    case "record": {
      const r = `r${depth}`
      const k = `k${depth}`
      const e = `e${depth}`
      const inner = nested(node.values, e, (x) => `${r}[${k}] = ${x}`)
      return [
        `{\n  const ${r} = ${value} as { [key: string]: unknown }\n  for (const ${k} in ${r}) {\n    const ${e} = ${r}[${k}]\n    if (${e} !== null) {\n${indent(inner, 3)}\n    }\n  }\n}`,
      ]
    }
    default:
      return []
  }
}

const indent = (lines: ReadonlyArray<string>, levels = 1): string =>
  lines
    .join("\n")
    .split("\n")
    .map((l) => "  ".repeat(levels) + l)
    .join("\n")
