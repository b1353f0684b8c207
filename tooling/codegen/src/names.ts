/**
 * Component names as TypeScript identifiers: `Foo.Bar-baz` becomes `FooBarBaz`; clashes get a number.
 */

const reserved = new Set([
  "Schema",
  "S",
  "Object",
  "Array",
  "String",
  "Number",
  "Boolean",
  "Symbol",
  "Error",
  "Function",
  "Date",
  "Map",
  "Set",
  "Promise",
])

const toIdentifier = (name: string): string => {
  const parts = name.split(/[^A-Za-z0-9_$]+/).filter((p) => p.length > 0)
  let id = parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join("")
  if (id === "" || /^[0-9]/.test(id)) id = `_${id}`
  return reserved.has(id) ? `${id}_` : id
}

/** Assigns every component a distinct identifier, stable for a given list of names. */
export const identifiers = (names: ReadonlyArray<string>): ((name: string) => string) => {
  const byName = new Map<string, string>()
  const taken = new Set<string>()
  for (const name of names) {
    const base = toIdentifier(name)
    let id = base
    for (let i = 2; taken.has(id) || taken.has(`${id}Encoded`); i++) id = `${base}${i}`
    taken.add(id)
    taken.add(`${id}Encoded`)
    byName.set(name, id)
  }
  return (name) => {
    const id = byName.get(name)
    if (id === undefined) throw new Error(`no component named ${name}`)
    return id
  }
}
