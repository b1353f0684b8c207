/**
 * The small part of JSONPath (RFC 9535) that overlay targets use: `$.a.b['c/d'].e`, array indices `.anyOf[0]` and
 * unions of names `$.components.schemas['A','B'].properties` (one action for the same field of several schemas).
 * No wildcards, slices or filters: every node a target names is spelled out, so a missing one can be reported.
 */

/** One step of a target path: the names (or array indices, as strings) it selects; a union selects several. */
export type Segment = ReadonlyArray<string>

const quoted = /\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*(,|\])/y

/** The steps of a target path, `$` left out. Throws on anything but dotted names, indices and quoted brackets. */
export const pathSegments = (target: string): ReadonlyArray<Segment> => {
  if (!target.startsWith("$")) throw new Error(`overlay target ${target} does not start with $`)
  const out: Array<Segment> = []
  const step = /\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\[/y
  step.lastIndex = 1
  while (step.lastIndex < target.length) {
    const from = step.lastIndex
    const m = step.exec(target)
    if (m === null) throw new Error(`overlay target ${target}: cannot read it from character ${from}`)
    if (m[1] !== undefined || m[2] !== undefined) {
      out.push([m[1] ?? m[2] ?? ""])
      continue
    }
    const names: Array<string> = []
    quoted.lastIndex = step.lastIndex
    for (;;) {
      const q = quoted.exec(target)
      if (q === null) throw new Error(`overlay target ${target}: cannot read it from character ${from}`)
      names.push(q[1] ?? q[2] ?? "")
      if (q[3] === "]") break
    }
    step.lastIndex = quoted.lastIndex
    out.push(names)
  }
  return out
}

/** One node a path selects: its parent object (or `undefined` when the path leads nowhere), its key, its path. */
export interface Selected {
  readonly parent: unknown
  readonly key: string
  readonly path: string
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/** Every node a path selects (one per name of each union), in order; `parent` is `undefined` where it leads nowhere. */
export const select = (root: unknown, segments: ReadonlyArray<Segment>): ReadonlyArray<Selected> => {
  let nodes: Array<{ node: unknown; path: string }> = [{ node: root, path: "$" }]
  const last = segments[segments.length - 1] ?? []
  for (const names of segments.slice(0, -1)) {
    nodes = nodes.flatMap(({ node, path }) =>
      names.map((n) => ({ node: isObject(node) ? node[n] : undefined, path: `${path}.${n}` })),
    )
  }
  return nodes.flatMap(({ node, path }) =>
    last.map((key) => ({ parent: isObject(node) ? node : undefined, key, path: `${path}.${key}` })),
  )
}
