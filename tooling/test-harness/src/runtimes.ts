// Which binary runs each runtime, for the scripts that start one themselves (the benchmarks, .ci/run's report).
//
// Both Nodes come from the npm registry, as the node-linux-<arch> packages (Linux x64 and arm64 only): Node 24 is
// an optional dependency of the root package (pnpm links it as node_modules/.bin/node, so every pnpm script runs on
// it), Node 22 one of tooling/node22. Where such a package is not installed (macOS, Windows, another CPU), a Node
// runtime runs on the Node that runs this code when that Node is the right version (Node 22 from 22.19 on, any
// Node 24); otherwise it is missing.
import { existsSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import process from "node:process"
import { fileURLToPath } from "node:url"

/**
 * The runtimes every suite may run on, in the order `pnpm test`'s summary lists them.
 *
 * @since 0.1.0
 */
export const RUNTIMES = ["node22", "node24", "deno", "bun", "workerd"] as const

/**
 * One of the runtimes.
 *
 * @since 0.1.0
 */
export type Runtime = (typeof RUNTIMES)[number]

/**
 * The repository root.
 *
 * @since 0.1.0
 */
export const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)))

/**
 * The two Node runtimes: the version each stands for, and the workspace folder whose node_modules holds its
 * node-linux-<arch> package.
 *
 * @since 0.1.0
 */
export const NODES = {
  node22: { major: 22, minor: 19, home: "tooling/node22" },
  node24: { major: 24, minor: 0, home: "." },
} as const

/** The CPUs the node-linux-<arch> packages exist for. */
const NODE_PACKAGE_ARCHES = ["x64", "arm64"]

/**
 * `CI` is set to something other than "", "0" or "false".
 *
 * @since 0.1.0
 */
export const isCI = (env: Record<string, string | undefined> = process.env): boolean => {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== "" && value !== "0" && value !== "false"
}

/**
 * What a runtime whose binary is missing counts as: a skipped suite, except in CI, where every runtime must run.
 *
 * @since 0.1.0
 */
export const missingRuntimeCounts = (env: Record<string, string | undefined> = process.env): "skipped" | "failed" =>
  isCI(env) ? "failed" : "skipped"

/**
 * The machine to resolve for (default: this one).
 *
 * @since 0.1.0
 */
export interface ResolveOptions {
  readonly root?: string
  readonly platform?: string
  readonly arch?: string
  readonly execPath?: string
  /** Of the Node at `execPath`, as in `process.versions.node`. */
  readonly version?: string
  readonly exists?: (path: string) => boolean
}

/**
 * A runtime's executable, or why there is none.
 *
 * @since 0.1.0
 */
export type Resolved = { readonly path: string } | { readonly missing: string }

const defaults = (options: ResolveOptions) => ({
  root: options.root ?? ROOT,
  platform: options.platform ?? process.platform,
  arch: options.arch ?? process.arch,
  execPath: options.execPath ?? process.execPath,
  version: options.version ?? process.versions.node,
  exists: options.exists ?? existsSync,
})

/**
 * The Node binary of `node22` or `node24`: `{ path }`, or `{ missing }` with the reason and what to do.
 *
 * @since 0.1.0
 */
export const nodeBinary = (runtime: keyof typeof NODES, options: ResolveOptions = {}): Resolved => {
  const { root, platform, arch, execPath, version, exists } = defaults(options)
  const { major, minor, home }: { major: number; minor: number; home: string } = NODES[runtime]
  const packaged = platform === "linux" && NODE_PACKAGE_ARCHES.includes(arch)
  const path = join(root, home, "node_modules", `node-linux-${arch}`, "bin", "node")
  if (packaged && exists(path)) return { path }
  const [ownMajor = 0, ownMinor = 0] = version.split(".").map(Number)
  if (ownMajor === major && ownMinor >= minor) return { path: execPath }
  const wanted = minor > 0 ? `Node ${major} (>= ${major}.${minor})` : `Node ${major}`
  return {
    missing: packaged
      ? `${wanted} is not installed (no ${relative(root, path)}): run pnpm install`
      : `no Node ${major} package for ${platform}-${arch} (pnpm install brings Node 22 and 24 on Linux x64 and arm64 ` +
        `only), and the Node running the tests is v${version}: run them on ${wanted} to cover ${runtime}`,
  }
}

/**
 * The executable that runs one runtime's suites: the Node that runs vitest (`node22`, `node24`, and for `workerd`
 * the project's Node 24, else the Node running this), or `deno` / `bun` from the root's node_modules/.bin.
 * `{ missing }` says why there is none.
 *
 * @since 0.1.0
 */
export const runtimeBinary = (runtime: Runtime, options: ResolveOptions = {}): Resolved => {
  switch (runtime) {
    case "node22":
    case "node24":
      return nodeBinary(runtime, options)
    case "deno":
    case "bun": {
      const { root, exists } = defaults(options)
      const path = join(root, "node_modules", ".bin", runtime)
      return exists(path)
        ? { path }
        : { missing: `${runtime} is not installed (no ${relative(root, path)}): run pnpm install` }
    }
    case "workerd": {
      const node24 = nodeBinary("node24", options)
      return "path" in node24 ? node24 : { path: defaults(options).execPath }
    }
    default:
      throw new Error(`unknown runtime "${runtime}"`)
  }
}
