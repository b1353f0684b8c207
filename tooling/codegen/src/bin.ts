/**
 * `friendli-codegen [--since <version>] <openapi.yaml>... <out-dir>`: writes the generated files, formatted with biome, and lists
 * what the generator had to approximate. Several descriptions are generated as one: the first is the document,
 * the component schemas of the others are added to it (a name defined twice is an error).
 */
import { execFileSync } from "node:child_process"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join, relative, resolve } from "node:path"
import { generate, mergeDocuments, parseDocument } from "./generate.ts"

const args = process.argv.slice(2)
// `--since <version>`: the `@since` of exports whose schema has no `x-since` (default: the document's version).
const sinceAt = args.indexOf("--since")
const since = sinceAt === -1 ? undefined : args.splice(sinceAt, 2)[1]
const outDir = args.pop()
if (args.length === 0 || outDir === undefined) {
  console.error("usage: friendli-codegen <openapi.yaml>... <out-dir>")
  process.exit(2)
}
const root = resolve(import.meta.dirname, "../../..")
const source = args.map((input) => relative(root, resolve(input))).join(" and ")
const documents = await Promise.all(args.map(async (input) => parseDocument(await readFile(input, "utf8"))))
const { files, warnings } = await generate(mergeDocuments(documents), {
  source,
  ...(since === undefined ? {} : { since }),
})
await mkdir(outDir, { recursive: true })
for (const f of files) await writeFile(join(outDir, f.path), f.contents)
// The files are formatted like the rest of the repository, so that `biome check` holds for them too.
try {
  execFileSync(
    join(root, "node_modules/.bin/biome"),
    ["check", "--write", "--no-errors-on-unmatched", resolve(outDir)],
    {
      stdio: "pipe",
    },
  )
} catch (error) {
  console.warn(
    `warning: biome could not format or lint the output cleanly:\n${String((error as { stdout?: unknown }).stdout)}`,
  )
}
for (const w of warnings) console.warn(`warning: ${w.path}: ${w.message}`)
console.log(`wrote ${files.map((f) => f.path).join(", ")} to ${relative(process.cwd(), resolve(outDir)) || "."}`)
