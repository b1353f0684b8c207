// The shared vitest configs: one for Node (22 and 24), one factory for workerd. Each package's `test:<runtime>`
// script passes one as `--config` (tooling/test-harness/vitest.node.mjs, vitest.workerd.mjs, or the package's own
// vitest.workerd.config.ts where its Worker needs options). Which files run where is vitest's own `include` and
// `exclude`; each run writes vitest's JUnit report to reports/<runtime>.xml, which `pnpm test`'s summary reads.
import { delimiter, dirname, resolve } from "node:path"
import { configDefaults, defineConfig } from "vitest/config"

/**
 * The test files of every runtime: `test/**\/*.test.ts`, less the folders of the other runtimes
 * (`test/{node,deno,bun,workerd}/` hold the tests of that runtime only).
 *
 * @since 0.3.0
 */
export const TEST_FILES = "test/**/*.test.ts"

/** The folders of the other runtimes, as vitest `exclude` globs. */
const otherRuntimes = (own: "node" | "workerd"): Array<string> =>
  ["node", "deno", "bun", "workerd"].filter((r) => r !== own).map((r) => `test/${r}/**`)

/**
 * The compatibility date the workerd suites run at (at most the installed workerd's own date).
 *
 * @since 0.1.0
 */
export const COMPATIBILITY_DATE = "2026-04-01"

const reports = (runtime: string) => ({
  reporters: ["default", "junit"],
  outputFile: { junit: `reports/${runtime}.xml` },
})

/**
 * The vitest config of a package's Node suite, on Node 22 and Node 24 alike: the report is
 * `reports/node<major>.xml`, and the Node running vitest comes first on PATH for the processes the tests start.
 *
 * @since 0.1.0
 */
export const nodeConfig = () => {
  const runtime = `node${process.versions.node.split(".")[0]}`
  process.env.PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`
  return defineConfig({
    test: {
      include: [TEST_FILES],
      exclude: [...configDefaults.exclude, ...otherRuntimes("node")],
      ...reports(runtime),
      // A worker's test files share its module cache, as on Deno, Bun and workerd: isolated, each file imported
      // effect and the packages anew (the stream suite took 21 s on Node 24 alone, 6 s shared).
      isolate: false,
    },
  })
}

/**
 * What a package may add to its workerd suite (paths relative to the package): `@cloudflare/vitest-pool-workers`
 * options (`main`, `wrangler`, `miniflare`; `nodejs_compat` is always on), a vitest `globalSetup` that runs in Node
 * before the pool starts (workerd cannot listen on a socket: serve the server under test there), the names of
 * values it `provide`s that become string bindings of the Worker (`env.NAME`), more `exclude` globs, and the
 * default test and hook timeout.
 *
 * @since 0.3.0
 */
export interface WorkerdOptions {
  readonly main?: string
  readonly wrangler?: { readonly configPath?: string; readonly environment?: string }
  readonly miniflare?: Record<string, unknown> & { readonly compatibilityFlags?: ReadonlyArray<string> }
  readonly globalSetup?: string
  readonly injectBindings?: ReadonlyArray<string>
  readonly exclude?: ReadonlyArray<string>
  readonly testTimeout?: number
}

type CloudflareTest = typeof import("@cloudflare/vitest-pool-workers").cloudflareTest
type PoolArgument = Parameters<CloudflareTest>[0]
type PoolOptionsFn = Extract<PoolArgument, (...args: never) => unknown>
type PoolOptions = Exclude<PoolArgument, (...args: never) => unknown>

/**
 * The vitest config of a package's workerd suite (the package is the working directory): tests run inside
 * workerd through `@cloudflare/vitest-pool-workers`, with `nodejs_compat` so that `node:assert` is there, and
 * write `reports/workerd.xml`.
 *
 * @since 0.1.0
 */
export const workerdConfig = async (options: WorkerdOptions = {}) => {
  const root = process.cwd()
  const { cloudflareTest } = await import("@cloudflare/vitest-pool-workers")
  const { globalSetup, injectBindings = [], exclude = [], testTimeout, ...extra } = options
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
    include: [TEST_FILES],
    exclude: [...configDefaults.exclude, ...otherRuntimes("workerd"), ...exclude],
    ...reports("workerd"),
    ...(testTimeout === undefined ? {} : { testTimeout, hookTimeout: testTimeout }),
    ...(globalSetup === undefined ? {} : { globalSetup: resolve(root, globalSetup) }),
    // The test files share one workerd runtime and its module cache: each file isolated imported effect and the
    // packages anew, 30 of the stream suite's 38 s (now 8 s); each file's own module state stays its own.
    isolate: false,
  }
  return defineConfig({ plugins: [cloudflareTest(injectBindings.length > 0 ? withInjected : pool)], test })
}
