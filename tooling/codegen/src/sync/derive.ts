/**
 * The sync proper: from the upstream description (with the overlay applied) to the description we generate from.
 * It keeps the selected operations, exactly the components they reach (transitively), drops what the generator
 * does not need (examples, documentation-site and SDK-generator extensions) and gives upstream schemas our names.
 */
import type { SyncConfig } from "./config.ts"
import { isRecord, type Json } from "./json.ts"
import { applyOverlay, type Overlay } from "./overlay.ts"

/** Extensions kept although they start with a dropped prefix. */
const keptExtensions = new Set(["x-speakeasy-sse-sentinel"])

/** Whether a key is noise for us: examples, `x-mint` (documentation site), `x-speakeasy-*` (SDK generator). */
const isNoise = (key: string): boolean =>
  key === "example" ||
  key === "examples" ||
  ((key.startsWith("x-mint") || key.startsWith("x-speakeasy")) && !keptExtensions.has(key))

/** Maps whose keys are names, not keywords (a property may be called `example`). */
const nameMaps = new Set(["properties", "patternProperties", "$defs", "mapping", "schemas", "responses"])

/** A deep copy without noise keys. */
const clean = (node: unknown, keysAreNames = false): unknown => {
  if (Array.isArray(node)) return node.map((n) => clean(n))
  if (!isRecord(node)) return node
  const out: Json = {}
  for (const [k, v] of Object.entries(node)) {
    if (!keysAreNames && isNoise(k)) continue
    out[k] = clean(v, !keysAreNames && nameMaps.has(k))
  }
  return out
}

const refPattern = /^#\/components\/([A-Za-z]+)\/(.+)$/

/** Every local `$ref` (and discriminator mapping target) inside a node. */
const refsIn = (node: unknown, out: Array<string>): void => {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out)
  else if (isRecord(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") {
        out.push(v)
      } else if (k === "mapping" && isRecord(v)) {
        for (const t of Object.values(v)) if (typeof t === "string") out.push(t)
      } else {
        refsIn(v, out)
      }
    }
  }
}

/** Rewrites `#/components/schemas/Old` to the new name wherever it appears as a string. */
const renameRefs = (node: unknown, renames: Readonly<Record<string, string>>): unknown => {
  if (Array.isArray(node)) return node.map((n) => renameRefs(n, renames))
  if (isRecord(node)) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, renameRefs(v, renames)]))
  if (typeof node === "string") {
    const m = /^#\/components\/schemas\/(.+)$/.exec(node)
    const to = m === null ? undefined : renames[m[1]!]
    if (to !== undefined) return `#/components/schemas/${to}`
  }
  return node
}

/** Whether a path is one of the selected operations (or its `#stream` variant). */
const selected = (path: string, config: SyncConfig): boolean => {
  const base = path.endsWith("#stream") ? path.slice(0, -"#stream".length) : path
  return config.prefixes.some((p) => base.startsWith(p) && config.operations.includes(base.slice(p.length)))
}

/** What the sync produced: the derived document and counts to report. */
export interface Derived {
  readonly document: Json
  readonly operations: number
  readonly schemas: number
  readonly overlayActions: number
}

/** Derives our description from the upstream one. Throws on a rename of a schema that is not derived. */
export const derive = (upstream: unknown, overlay: Overlay, config: SyncConfig): Derived => {
  if (!isRecord(upstream) || !isRecord(upstream.paths) || !isRecord(upstream.components)) {
    throw new Error("the upstream description has no paths or components")
  }
  const source = structuredClone(upstream)
  applyOverlay(source, overlay)
  const upstreamPaths = source.paths as Json
  const components = source.components as Json

  const paths: Json = {}
  let operations = 0
  for (const [path, item] of Object.entries(upstreamPaths)) {
    if (!selected(path, config) || !isRecord(item)) continue
    paths[path] = clean(item)
    operations += Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)).length
  }

  // The components reached from the operations, transitively, by kind (schemas, parameters, ...).
  const reached = new Map<string, Set<string>>()
  const pending: Array<string> = []
  refsIn(paths, pending)
  while (pending.length > 0) {
    const ref = pending.pop()!
    const m = refPattern.exec(ref)
    if (m === null) throw new Error(`only local component refs are supported, got ${ref}`)
    const [, kind, name] = m as unknown as [string, string, string]
    const seen = reached.get(kind) ?? new Set<string>()
    reached.set(kind, seen)
    if (seen.has(name)) continue
    const target = isRecord(components[kind]) ? (components[kind] as Json)[name] : undefined
    if (target === undefined) throw new Error(`$ref ${ref} points to no component`)
    seen.add(name)
    refsIn(target, pending)
  }
  const securityNames = new Set<string>()
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item as Json)) {
      if (!isRecord(op) || !Array.isArray(op.security)) continue
      for (const req of op.security) if (isRecord(req)) for (const k of Object.keys(req)) securityNames.add(k)
    }
  }
  if (securityNames.size > 0) reached.set("securitySchemes", securityNames)

  for (const name of config.publishedIn010) {
    const upstreamName = Object.entries(config.renames).find(([, to]) => to === name)?.[0] ?? name
    if (!reached.get("schemas")?.has(upstreamName)) throw new Error(`sync config: ${name} is not a derived schema`)
  }
  for (const from of Object.keys(config.renames)) {
    if (!reached.get("schemas")?.has(from))
      throw new Error(`sync config renames ${from}, which is not a derived schema`)
  }
  const derivedComponents: Json = {}
  for (const [kind, all] of Object.entries(components)) {
    const names = reached.get(kind)
    if (names === undefined || !isRecord(all)) continue
    const out: Json = {}
    // Upstream order, so that a new upstream version gives a readable diff.
    for (const [name, value] of Object.entries(all)) {
      if (!names.has(name)) continue
      const newName = kind === "schemas" ? (config.renames[name] ?? name) : name
      if (newName in out || (newName !== name && names.has(newName))) {
        throw new Error(`renaming ${name} to ${newName} clashes with another schema`)
      }
      const schema = clean(value)
      out[newName] =
        kind === "schemas" && isRecord(schema) && config.publishedIn010.includes(newName)
          ? { ...schema, "x-since": "0.1.0" }
          : schema
    }
    derivedComponents[kind] = out
  }

  const usedTags = new Set<string>()
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item as Json)) {
      if (isRecord(op) && Array.isArray(op.tags)) for (const t of op.tags) usedTags.add(String(t))
    }
  }
  const info = isRecord(source.info) ? source.info : {}
  const { upstream: u } = config
  const document: Json = {
    openapi: source.openapi,
    info: {
      title: info.title,
      version: info.version,
      description:
        "The inference operations of Friendli's published API description, derived by `pnpm codegen:sync` " +
        "(tooling/codegen) with packages/core/openapi/overlay.yaml applied. Do not edit: change sync.yaml or " +
        "overlay.yaml and run `pnpm codegen`.",
      ...(info.license === undefined ? {} : { license: info.license }),
      "x-upstream": { repository: u.repository, path: u.path, commit: u.commit, date: u.date },
    },
    ...(source.servers === undefined ? {} : { servers: clean(source.servers) }),
    paths: renameRefs(paths, config.renames),
    components: renameRefs(derivedComponents, config.renames),
    ...(Array.isArray(source.tags)
      ? { tags: clean(source.tags.filter((t) => isRecord(t) && usedTags.has(String(t.name)))) }
      : {}),
  }
  return {
    document,
    operations,
    schemas: Object.keys((derivedComponents.schemas as Json | undefined) ?? {}).length,
    overlayActions: overlay.actions.length,
  }
}
