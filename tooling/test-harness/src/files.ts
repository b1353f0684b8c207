// Which test files run on which runtime. One source of truth for the vitest configs and run-suite.mjs.
import { existsSync, readdirSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"

/**
 * The runtimes every suite runs on, in the order `pnpm test` runs them.
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
 * The folder under `test/` that holds the tests of one runtime only (both Node versions share `node`).
 *
 * @since 0.1.0
 */
export const RUNTIME_DIRS = {
  node22: "node",
  node24: "node",
  deno: "deno",
  bun: "bun",
  workerd: "workerd",
} as const satisfies Record<Runtime, string>

const ONLY_DIRS = new Set<string>(Object.values(RUNTIME_DIRS))

const walk = (dir: string): Array<string> => {
  const out: Array<string> = []
  if (!existsSync(dir)) return out
  const entries = readdirSync(dir, { withFileTypes: true })
  for (const entry of entries) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory() || (entry.isSymbolicLink() && statSync(path).isDirectory())) out.push(...walk(path))
    else if (entry.name.endsWith(".test.ts")) out.push(path)
  }
  return out
}

/**
 * The test files of a package for one runtime, relative to the package folder with `/` separators, sorted:
 * every `test/**\/*.test.ts` outside the runtime folders, plus those under `test/<runtime>/`.
 *
 * @since 0.1.0
 */
export const testFiles = (packageDir: string, runtime: Runtime): Array<string> => {
  const own = RUNTIME_DIRS[runtime]
  if (own === undefined) throw new Error(`unknown runtime "${runtime}"; expected one of ${RUNTIMES.join(", ")}`)
  return walk(join(packageDir, "test"))
    .map((file) => relative(packageDir, file).split(sep).join("/"))
    .filter((file) => {
      const top = file.split("/")[1] ?? ""
      return !ONLY_DIRS.has(top) || top === own
    })
    .sort()
}
