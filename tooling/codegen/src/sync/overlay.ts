/**
 * OpenAPI Overlay 1.0 (the subset we use): each action has a `target` (a JSONPath of names), a `description`, the
 * evidence (`x-evidence`: a documentation URL or a capture file) and either `update` (merged into the target) or
 * `remove: true`. An action whose target does not exist fails the sync, so an upstream change that moves a schema
 * is noticed instead of silently dropping our correction.
 */
import { isRecord } from "./json.ts"
import { pathSegments, select } from "./pointer.ts"

/** One overlay action. */
export interface OverlayAction {
  readonly target: string
  readonly description: string
  readonly "x-evidence": ReadonlyArray<string>
  readonly update?: unknown
  readonly remove?: boolean
}

/** An overlay document. */
export interface Overlay {
  readonly overlay: string
  readonly info: { readonly title: string; readonly version: string }
  readonly actions: ReadonlyArray<OverlayAction>
}

/** Deep-merges `update` into `target` (objects merge, arrays are appended, anything else replaces). */
const merge = (target: Record<string, unknown>, update: Record<string, unknown>): void => {
  for (const [k, v] of Object.entries(update)) {
    const old = target[k]
    if (isRecord(old) && isRecord(v)) merge(old, v)
    else if (Array.isArray(old) && Array.isArray(v)) old.push(...structuredClone(v))
    else target[k] = structuredClone(v)
  }
}

/** Checks an overlay document's shape; throws naming the first action that is not right. */
export const readOverlay = (u: unknown): Overlay => {
  if (!isRecord(u) || typeof u.overlay !== "string" || !Array.isArray(u.actions)) {
    throw new Error("the overlay is not an OpenAPI Overlay document (overlay: 1.0.0, actions: [...])")
  }
  u.actions.forEach((a: unknown, i) => {
    const where = `overlay action ${i}`
    if (!isRecord(a) || typeof a.target !== "string") throw new Error(`${where} has no target`)
    if (typeof a.description !== "string" || a.description === "") throw new Error(`${where} has no description`)
    const evidence = a["x-evidence"]
    if (!Array.isArray(evidence) || evidence.length === 0 || !evidence.every((e) => typeof e === "string")) {
      throw new Error(`${where} (${a.target}) has no x-evidence: say where the difference was seen`)
    }
    if ((a.update === undefined) === (a.remove !== true)) {
      throw new Error(`${where} (${a.target}) must have exactly one of update and remove: true`)
    }
  })
  return u as unknown as Overlay
}

/** Applies an overlay to a document, in place; a target with a union of names applies to each node it names. */
export const applyOverlay = (document: unknown, overlay: Overlay): void => {
  for (const action of overlay.actions) {
    for (const { parent, key, path } of select(document, pathSegments(action.target))) {
      const from = path === action.target ? "" : ` (in ${action.target})`
      const missing = () => new Error(`overlay target ${path} does not exist in the upstream description${from}`)
      if (!isRecord(parent) && !Array.isArray(parent)) throw missing()
      const holder = parent as Record<string, unknown>
      if (!(key in holder) || holder[key] === undefined) throw missing()
      if (action.remove === true) {
        if (Array.isArray(parent)) throw new Error(`overlay target ${path}: array items cannot be removed`)
        delete holder[key]
        continue
      }
      const target = holder[key]
      if (!isRecord(target) || !isRecord(action.update)) {
        throw new Error(`overlay target ${path}: only objects can be updated`)
      }
      merge(target, action.update)
    }
  }
}
