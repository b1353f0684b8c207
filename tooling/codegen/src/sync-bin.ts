/**
 * `pnpm codegen:sync [--upstream <file> --commit <sha> --date <YYYY-MM-DD>]`: derives
 * packages/core/openapi/friendli.yaml from the pinned upstream description (sync.yaml) and the overlay. With
 * `--upstream`, the new file, commit and date are first recorded in sync.yaml: updating is this one command.
 * When the upstream file is absent, says so in one line and leaves the committed friendli.yaml as it is.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { readFile, writeFile } from "node:fs/promises"
import { join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"
import { parse as parseYaml, stringify } from "yaml"
import { readConfig } from "./sync/config.ts"
import { derive } from "./sync/derive.ts"
import { readOverlay } from "./sync/overlay.ts"

const root = resolve(import.meta.dirname, "../../..")
const openapiDir = resolve(root, "packages/core/openapi")
const configFile = resolve(openapiDir, "sync.yaml")
const { values } = parseArgs({
  options: { upstream: { type: "string" }, commit: { type: "string" }, date: { type: "string" } },
})

let configText = await readFile(configFile, "utf8")
if (values.upstream !== undefined) {
  if (values.commit === undefined || values.date === undefined) {
    console.error(
      "codegen:sync: --upstream needs --commit <sha> and --date <YYYY-MM-DD> (the upstream commit it is at)",
    )
    process.exit(2)
  }
  const file = relative(root, resolve(process.env.INIT_CWD ?? process.cwd(), values.upstream))
  // Line edits, so that the comments of sync.yaml stay.
  const set = (text: string, key: string, value: string): string =>
    text.replace(new RegExp(`^(  ${key}: ).*$`, "m"), `$1${JSON.stringify(value)}`)
  configText = set(set(set(configText, "file", file), "commit", values.commit), "date", values.date)
  await writeFile(configFile, configText)
}
const config = readConfig(parseYaml(configText))
const upstreamFile = resolve(root, config.upstream.file)
if (!existsSync(upstreamFile)) {
  console.log(
    `codegen:sync: skipped: the upstream description ${config.upstream.file} is absent; generating from the committed friendli.yaml`,
  )
  process.exit(0)
}
const overlay = readOverlay(parseYaml(await readFile(resolve(openapiDir, "overlay.yaml"), "utf8")))
const derived = derive(parseYaml(await readFile(upstreamFile, "utf8")), overlay, config)
const { repository, path, commit, date } = config.upstream
const header = [
  `# Derived by \`pnpm codegen:sync\` (tooling/codegen) from ${repository} ${path} at ${commit} (${date}),`,
  "# with overlay.yaml applied and the names of sync.yaml. DO NOT EDIT: change sync.yaml or overlay.yaml, or",
  "# update the upstream with `pnpm codegen:sync --upstream <file> --commit <sha> --date <date>`.",
  "",
].join("\n")
const derivedFile = resolve(openapiDir, "friendli.yaml")
await writeFile(derivedFile, header + stringify(derived.document, { lineWidth: 120 }))
// Formatted like the rest of the repository, so that `biome check` holds for it too.
execFileSync(join(root, "node_modules/.bin/biome"), ["format", "--write", derivedFile], { stdio: "pipe" })
console.log(
  `codegen:sync: ${derived.operations} operations, ${derived.schemas} schemas, ${derived.overlayActions} overlay actions from ${commit} -> packages/core/openapi/friendli.yaml`,
)
