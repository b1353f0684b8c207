#!/usr/bin/env node
// The codegen drift check: runs `pnpm codegen` and fails when packages/core/src/generated then differs
// from what git has (a changed, added or deleted file). Generated code must come from the generator and
// the OpenAPI description, and be committed as generated.
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const GENERATED = "packages/core/src/generated"
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

console.log("codegen-check: running pnpm codegen")
const codegen = spawnSync("pnpm", ["codegen"], { cwd: ROOT, stdio: "inherit" })
if (codegen.error !== undefined) fail(`could not run pnpm codegen: ${codegen.error.message}`)
if (codegen.status !== 0) fail(`pnpm codegen exited with ${codegen.status ?? codegen.signal}`)

const git = spawnSync("git", ["status", "--porcelain", "--untracked-files=all", "--", GENERATED], {
  cwd: ROOT,
  encoding: "utf8",
})
if (git.error !== undefined) fail(`could not run git: ${git.error.message}`)
if (git.status !== 0) fail(`git status failed: ${git.stderr.trim()}`)
const drift = git.stdout.trimEnd()
if (drift !== "") {
  console.error(drift)
  fail(
    `${GENERATED} differs from the committed files after pnpm codegen (above): ` +
      "run `pnpm codegen` and commit the result, and never edit generated files by hand",
  )
}
console.log(`codegen-check: ok: ${GENERATED} is exactly what pnpm codegen writes`)
