#!/usr/bin/env node
// The codegen drift check: runs `pnpm codegen` (the sync, then the generator) and fails when
// packages/core/src/generated or the derived description packages/core/openapi/friendli.yaml then differs from
// what git has (a changed, added or deleted file). Generated code must come from the generator and the OpenAPI
// description, and the description from Friendli's pinned upstream file, sync.yaml and overlay.yaml. When the
// upstream file (in ../shared) is absent, the sync comparison is reported as skipped, and generation still checked.
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const GENERATED = "packages/core/src/generated"
const DERIVED = "packages/core/openapi/friendli.yaml"
const SYNC_CONFIG = "packages/core/openapi/sync.yaml"
const GENERATOR = "tooling/codegen/package.json"

/** @param {string} message */
const fail = (message) => {
  console.error(`codegen-check: FAILED: ${message}`)
  process.exit(1)
}

const manifest = join(ROOT, GENERATOR)
if (!existsSync(manifest)) fail(`there is no generator: ${GENERATOR} is missing, so ${GENERATED} cannot be checked`)
if (typeof JSON.parse(readFileSync(manifest, "utf8")).scripts?.generate !== "string") {
  fail(`${GENERATOR} has no "generate" script, so \`pnpm codegen\` cannot regenerate ${GENERATED}`)
}

// Where the sync reads the upstream description (sync.yaml's upstream.file, relative to the repository root).
const upstreamFile = /^\s+file:\s*"?([^"\n]+)"?\s*$/m.exec(readFileSync(join(ROOT, SYNC_CONFIG), "utf8"))?.[1]
const syncRuns = upstreamFile !== undefined && existsSync(resolve(ROOT, upstreamFile))

console.log("codegen-check: running pnpm codegen")
const codegen = spawnSync("pnpm", ["codegen"], { cwd: ROOT, stdio: "inherit" })
if (codegen.error !== undefined) fail(`could not run pnpm codegen: ${codegen.error.message}`)
if (codegen.status !== 0) fail(`pnpm codegen exited with ${codegen.status ?? codegen.signal}`)

const git = spawnSync("git", ["status", "--porcelain", "--untracked-files=all", "--", GENERATED, DERIVED], {
  cwd: ROOT,
  encoding: "utf8",
})
if (git.error !== undefined) fail(`could not run git: ${git.error.message}`)
if (git.status !== 0) fail(`git status failed: ${git.stderr.trim()}`)
const drift = git.stdout.trimEnd()
if (drift !== "") {
  console.error(drift)
  fail(
    `${GENERATED} or ${DERIVED} differs from the committed files after pnpm codegen (above): ` +
      "run `pnpm codegen` and commit the result, and never edit generated files by hand",
  )
}
if (syncRuns) {
  console.log(`codegen-check: ok: ${DERIVED} is exactly what the sync derives from ${upstreamFile}`)
} else {
  console.log(
    `codegen-check: skipped: the sync comparison, because the upstream description ${upstreamFile ?? "(not named in sync.yaml)"} is absent`,
  )
}
console.log(`codegen-check: ok: ${GENERATED} is exactly what pnpm codegen writes`)
