/**
 * The test files of a package's Deno suite (the package is the working directory), loaded into the isolate that
 * imports this module: every file under `test/` that `deno test test` would pick (`*.test.ts`, `*_test.ts`, `test.ts`
 * and their js/tsx/mts kin), less `test/node`, `test/bun` and `test/workerd`, in path order, each through
 * `declareFile`. `denoSuite.ts` loads them all into one isolate; `denoShards/<n>.ts` each load every second file, for
 * suites that mostly wait and run their two halves at once (`deno test --parallel`).
 */
import { readdirSync } from "node:fs"
import { join, relative, sep } from "node:path"
import process from "node:process"
import { pathToFileURL } from "node:url"
import { declareFile } from "./deno.ts"

const TEST_FILE = /(^|[._])test\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/
const OTHER_RUNTIMES = ["node", "bun", "workerd"].map((runtime) => join("test", runtime) + sep)

const root = process.cwd()
const files = readdirSync(join(root, "test"), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name))
  .map((entry) => relative(root, join(entry.parentPath, entry.name)))
  .filter((file) => !OTHER_RUNTIMES.some((folder) => file.startsWith(folder)))
  .sort()

/** Declares the package's test files, or with `shard` only those of the shard (its index, from 1, of `count`). */
export const declareTestFiles = async (shard?: { readonly index: number; readonly count: number }): Promise<void> => {
  const chosen = shard === undefined ? files : files.filter((_, i) => i % shard.count === shard.index - 1)
  for (const file of chosen) await declareFile(file, () => import(pathToFileURL(join(root, file)).href))
}
