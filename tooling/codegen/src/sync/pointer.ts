/**
 * The small part of JSONPath that overlay targets use: `$.a.b['c/d'].e` (names only, no wildcards or filters).
 */

/** The names along a target path, `$` left out. Throws on anything but dotted names and quoted brackets. */
export const pathSegments = (target: string): ReadonlyArray<string> => {
  if (!target.startsWith("$")) throw new Error(`overlay target ${target} does not start with $`)
  const out: Array<string> = []
  const re = /\.([A-Za-z0-9_$-]+)|\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/y
  re.lastIndex = 1
  while (re.lastIndex < target.length) {
    const at = re.lastIndex
    const m = re.exec(target)
    if (m === null) throw new Error(`overlay target ${target}: cannot read it from character ${at}`)
    out.push(m[1] ?? m[2] ?? m[3] ?? "")
  }
  return out
}

/** The object at a path, or `undefined` when the path leads nowhere. */
export const at = (root: unknown, segments: ReadonlyArray<string>): unknown => {
  let node: unknown = root
  for (const s of segments) {
    if (typeof node !== "object" || node === null) return undefined
    node = (node as Record<string, unknown>)[s]
  }
  return node
}
