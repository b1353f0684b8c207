// The shared vitest configs: one factory for Node, one for workerd. Every package uses these, through
// run-suite.mjs (which passes ../vitest.node.mjs or ../vitest.workerd.mjs as --config); no package
// needs a vitest config of its own. Per-package settings (a test timeout, workerd pool options) live in
// package.json under "friendli-stream"; the runtimes a package runs on are the arguments of its `test` script.
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { defineConfig } from "vitest/config"
import { type Runtime, testFiles } from "./files.ts"

/**
 * The `"friendli-stream"` settings of a package.json.
 *
 * @since 0.1.0
 */
export interface PackageTestSettings {
  /** Default test and hook timeout in milliseconds on vitest (default 5000). */
  readonly testTimeout?: number
  /** Extra `@cloudflare/vitest-pool-workers` options for the workerd suite. */
  readonly workerd?: {
    readonly main?: string
    readonly wrangler?: { readonly configPath?: string; readonly environment?: string }
    readonly miniflare?: Record<string, unknown> & { readonly compatibilityFlags?: ReadonlyArray<string> }
    /** A vitest global setup file (run in Node before the pool starts), relative to the package. */
    readonly globalSetup?: string
    /** Names of values the global setup `provide`s that become string bindings of the Worker (`env.NAME`). */
    readonly injectBindings?: ReadonlyArray<string>
  }
}

type CloudflareTest = typeof import("@cloudflare/vitest-pool-workers").cloudflareTest
type PoolArgument = Parameters<CloudflareTest>[0]
type PoolOptionsFn = Extract<PoolArgument, (...args: never) => unknown>
type PoolOptions = Exclude<PoolArgument, (...args: never) => unknown>

/**
 * The compatibility date the workerd suites run at (at most the installed workerd's own date).
 *
 * @since 0.1.0
 */
export const COMPATIBILITY_DATE = "2026-04-01"

/**
 * The `"friendli-stream"` settings of a package.json.
 *
 * @since 0.1.0
 */
export const packageSettings = (packageDir: string): PackageTestSettings => {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"))
  return manifest["friendli-stream"] ?? {}
}

const testSection = (root: string, runtime: Runtime) => {
  const include = testFiles(root, runtime)
  return {
    root,
    include,
    // With no file, vitest fails ("No test files found"): a suite that runs nothing is a failure.
    passWithNoTests: false,
    testTimeout: packageSettings(root).testTimeout ?? 5000,
    hookTimeout: packageSettings(root).testTimeout ?? 5000,
  }
}

/**
 * The vitest config of a package's Node suite (used on Node 22 and Node 24 alike).
 *
 * `options.root`: the package folder (default: the working directory).
 *
 * @since 0.1.0
 */
export const nodeConfig = (options: { readonly root?: string } = {}) => {
  const root = resolve(options.root ?? process.cwd())
  return defineConfig({ root, test: testSection(root, "node22") })
}

/**
 * The vitest config of a package's workerd suite: tests run inside workerd through
 * `@cloudflare/vitest-pool-workers` (its vitest 4 `cloudflareTest` plugin), with `nodejs_compat` so that
 * `node:assert` is there. A package may add pool options (`main`, `wrangler`, `miniflare`) under
 * `"friendli-stream": { "workerd": { ... } }` in its package.json; paths are relative to the package. There too,
 * `globalSetup` names a vitest global setup file that runs in Node before the pool starts (e.g. to serve something
 * on a real socket), and `injectBindings` names values it `provide`s that become string bindings of the Worker.
 *
 * `options.root`: the package folder (default: the working directory).
 *
 * @since 0.1.0
 */
export const workerdConfig = async (options: { readonly root?: string } = {}) => {
  const root = resolve(options.root ?? process.cwd())
  const { cloudflareTest } = await import("@cloudflare/vitest-pool-workers")
  const { globalSetup, injectBindings = [], ...extra } = packageSettings(root).workerd ?? {}
  const compatibilityFlags = [...new Set(["nodejs_compat", ...(extra.miniflare?.compatibilityFlags ?? [])])]
  const pool: PoolOptions = {
    ...extra,
    ...(extra.main === undefined ? {} : { main: resolve(root, extra.main) }),
    ...(extra.wrangler?.configPath === undefined
      ? {}
      : { wrangler: { ...extra.wrangler, configPath: resolve(root, extra.wrangler.configPath) } }),
    miniflare: {
      ...(extra.wrangler?.configPath === undefined ? { compatibilityDate: COMPATIBILITY_DATE } : {}),
      ...extra.miniflare,
      compatibilityFlags,
    },
  }
  // Values the globalSetup provides (e.g. the URL of a server it started in Node) become string bindings.
  const withInjected: PoolOptionsFn = ({ inject }) => ({
    ...pool,
    miniflare: {
      ...pool.miniflare,
      bindings: {
        ...pool.miniflare?.bindings,
        ...Object.fromEntries(injectBindings.map((name) => [name, inject(name as never) as string])),
      },
    },
  })
  const test = {
    ...testSection(root, "workerd"),
    ...(globalSetup === undefined ? {} : { globalSetup: resolve(root, globalSetup) }),
    // The test files share one workerd runtime and its module cache: each file isolated imported effect and the
    // packages anew, 30 of the stream suite's 38 s (now 8 s); each file's own module state stays its own.
    isolate: false,
  }
  return defineConfig({ root, plugins: [cloudflareTest(injectBindings.length > 0 ? withInjected : pool)], test })
}
