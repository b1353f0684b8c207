/**
 * The sync's configuration (`packages/core/openapi/sync.yaml`): where the upstream description is and which
 * commit it is, which operations we take, and the names we publish for upstream schemas.
 */
import { isRecord } from "./json.ts"

/** The pinned upstream description. */
export interface Upstream {
  /** The repository it is published in, e.g. `github.com/friendliai/friendli-openapi`. */
  readonly repository: string
  /** The file's path in that repository. */
  readonly path: string
  /** The commit the local copy was taken at. */
  readonly commit: string
  /** The commit's date (YYYY-MM-DD). */
  readonly date: string
  /** Where the local copy is, relative to the repository root. */
  readonly file: string
}

/** The sync configuration. */
export interface SyncConfig {
  readonly upstream: Upstream
  /** Path prefixes of the deployment kinds (serverless, dedicated, container). */
  readonly prefixes: ReadonlyArray<string>
  /** The operations taken under each prefix; a `#stream` suffix (streaming variant) is taken too. */
  readonly operations: ReadonlyArray<string>
  /** Upstream schema name -> our public name. */
  readonly renames: Readonly<Record<string, string>>
  /** Our names already published in 0.1.0 (marked `x-since: "0.1.0"`). */
  readonly publishedIn010: ReadonlyArray<string>
}

const strings = (u: unknown, what: string): ReadonlyArray<string> => {
  if (!Array.isArray(u) || !u.every((x) => typeof x === "string"))
    throw new Error(`sync config: ${what} must be a list of strings`)
  return u
}

/** Checks the configuration's shape; throws naming what is missing. */
export const readConfig = (u: unknown): SyncConfig => {
  if (!isRecord(u) || !isRecord(u.upstream)) throw new Error("sync config: upstream is missing")
  for (const k of ["repository", "path", "commit", "date", "file"]) {
    if (typeof u.upstream[k] !== "string") throw new Error(`sync config: upstream.${k} must be a string`)
  }
  const renames = isRecord(u.renames) ? u.renames : {}
  const targets = new Set<string>()
  for (const [from, to] of Object.entries(renames)) {
    if (typeof to !== "string") throw new Error(`sync config: renames.${from} must be a string`)
    if (targets.has(to)) throw new Error(`sync config: two schemas are renamed to ${to}`)
    targets.add(to)
  }
  return {
    upstream: u.upstream as unknown as Upstream,
    prefixes: strings(u.prefixes, "prefixes"),
    operations: strings(u.operations, "operations"),
    renames: renames as Record<string, string>,
    publishedIn010: u.published_in_0_1_0 === undefined ? [] : strings(u.published_in_0_1_0, "published_in_0_1_0"),
  }
}
