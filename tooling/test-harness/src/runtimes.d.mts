import type { Runtime } from "./files.d.mts"

/** The options that say which machine to resolve for (default: this one). */
export interface ResolveOptions {
  readonly root?: string
  readonly platform?: string
  readonly arch?: string
  readonly execPath?: string
  /** Of the Node at `execPath`, as in `process.versions.node`. */
  readonly version?: string
  readonly exists?: (path: string) => boolean
}

export type Resolved = { readonly path: string } | { readonly missing: string }

/** The repository root. */
export declare const ROOT: string
/** The two Node runtimes: the version each stands for, and the folder whose node_modules holds its Node. */
export declare const NODES: {
  readonly node22: { readonly major: 22; readonly minor: 19; readonly home: "tooling/node22" }
  readonly node24: { readonly major: 24; readonly minor: 0; readonly home: "." }
}
/** `CI` is set to something other than "", "0" or "false". */
export declare const isCI: (env?: Record<string, string | undefined>) => boolean
/** A missing runtime's suites count as skipped, except in CI, where they fail. */
export declare const missingRuntimeCounts: (env?: Record<string, string | undefined>) => "skipped" | "failed"
/** The Node binary of `node22` or `node24`, or why there is none. */
export declare const nodeBinary: (runtime: keyof typeof NODES, options?: ResolveOptions) => Resolved
/** The executable that runs one runtime's suites, or why there is none. */
export declare const runtimeBinary: (runtime: Runtime, options?: ResolveOptions) => Resolved
