/**
 * The one test module of a package's Deno suite (`deno test ... tooling/test-harness/src/denoSuite.ts`, run in the
 * package's folder): it imports every test file under `test/` that `deno test test` would pick (`*.test.ts`,
 * `*_test.ts`, `test.ts` and their js/tsx/mts kin), less `test/node`, `test/bun` and `test/workerd`, in path order,
 * each through `declareFile`. The files share this one isolate and its module cache, as on Bun and workerd: each
 * file in its own isolate loaded effect and the packages anew, most of the stream suite's 42 s.
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

for (const file of files) await declareFile(file, () => import(pathToFileURL(join(root, file)).href))
