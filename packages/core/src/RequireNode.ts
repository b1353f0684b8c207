/**
 * The Node version check every package runs first when it is imported: on Node older than 22.19 the import fails
 * with one line naming the Node the packages need, instead of a stack trace from deep inside a dependency.
 *
 * Deno, Bun and Cloudflare Workers also have a `process.versions.node` (their Node compatibility level, not a Node):
 * the check is skipped there. The packages say `"sideEffects": false`, so a bundler drops the check (checked with
 * esbuild): a bundle made for an old Node fails later, in whatever breaks first.
 *
 * @since 0.3.0
 */

/**
 * The oldest Node the packages run on, as `[major, minor]`.
 *
 * @since 0.3.0
 */
export const minimumNode: readonly [major: number, minor: number] = [22, 19]

/**
 * Thrown at import on a Node older than {@link minimumNode}; its message (and its whole stack) is one line:
 * `@friendli-stream/X needs Node >= 22.19 (this is Node 20.19.0)` (no frames, no fields: an uncaught one prints as
 * that line in brackets).
 *
 * @since 0.3.0
 */
export class UnsupportedNodeError extends Error {
  constructor(packageName: string, nodeVersion: string) {
    super(`${packageName} needs Node >= ${minimumNode.join(".")} (this is Node ${nodeVersion})`)
    this.name = "UnsupportedNodeError"
    // One line when it goes unhandled: the message is the whole story, the frames would be the import graph.
    this.stack = `${this.name}: ${this.message}`
  }
}

/**
 * The running Node's version, or `undefined` on anything that is not Node (Deno, Bun, workerd, browsers).
 *
 * @since 0.3.0
 */
export const nodeVersion = (): string | undefined => {
  const g = globalThis as {
    readonly process?: { readonly versions?: { readonly node?: unknown } }
    readonly Deno?: unknown
    readonly Bun?: unknown
    readonly navigator?: { readonly userAgent?: unknown }
  }
  const version = g.process?.versions?.node
  if (typeof version !== "string") return undefined
  if (g.Deno !== undefined || g.Bun !== undefined) return undefined
  if (g.navigator?.userAgent === "Cloudflare-Workers") return undefined
  return version
}

/**
 * Whether a Node version (`"22.19.0"`) is at least {@link minimumNode}.
 *
 * @since 0.3.0
 */
export const isSupportedNode = (version: string): boolean => {
  const [major = 0, minor = 0] = version.split(".").map((part) => Number.parseInt(part, 10))
  return major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1])
}

/**
 * Throws {@link UnsupportedNodeError} for `packageName` when running on a Node older than {@link minimumNode};
 * does nothing elsewhere. Each package calls it from the first module its entry imports.
 *
 * @since 0.3.0
 */
export const requireNode = (packageName: string): void => {
  const version = nodeVersion()
  if (version !== undefined && !isSupportedNode(version)) throw new UnsupportedNodeError(packageName, version)
}
