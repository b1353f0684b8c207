#!/usr/bin/env node
// tooling/consumer's `consumer:check` (part of `pnpm test`): the three checks of the packages as a user gets them,
// at the same time, from one packing.
//
//   node tooling/scripts/consumer-check-all.mjs [--keep]
//
// The packages' dist/ must be built (`pnpm build`; the turbo task builds them first).
//   1. Packs every publishable package once, as `pnpm pack:all` does, into a temp folder.
//   2. Runs, each in its own process and all at once: `consumer-check.mjs --packed <dir>` (the consumer project),
//      `readme-install-check.mjs --packed <dir>` (every README's install section) and `release.mjs patch --dry-run`
//      (which packs its own tarballs, at the next version, as it would publish them). Their lines are printed as
//      they come; each starts with its script's name (`consumer-check:`, `readme-install:`, `release:`).
//   3. Last, one line per check: passed or failed, and its time. Exit code 1 when any failed.
// `--keep` keeps the packed folder and is passed on. Each script runs on its own too (`test:consumer`,
// `test:readme`, `test:release`), packing for itself.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { packAll, ROOT } from "./lib/pack.mjs"

const keep = process.argv.includes("--keep")
const started = Date.now()
const seconds = (/** @type {number} */ t0) => `${((Date.now() - t0) / 1000).toFixed(1)}s`

/**
 * Runs a script with the Node running this one, its output passed on whole lines at a time (the checks' lines do
 * not cut into each other); resolves with its exit code.
 *
 * @param {string[]} args
 * @returns {Promise<number>}
 */
const runScript = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] })
    for (const [from, to] of /** @type {const} */ ([
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])) {
      let rest = ""
      from.setEncoding("utf8").on("data", (/** @type {string} */ chunk) => {
        const end = (rest + chunk).lastIndexOf("\n") + 1
        const text = rest + chunk
        rest = text.slice(end)
        if (end > 0) to.write(text.slice(0, end))
      })
      from.on("end", () => {
        if (rest !== "") to.write(`${rest}\n`)
      })
    }
    child.on("error", (error) => {
      console.error(`consumer:check: could not run ${args[0]}: ${error.message}`)
      resolve(1)
    })
    child.on("close", (code) => resolve(code ?? 1))
  })

const temp = mkdtempSync(join(tmpdir(), "friendli-consumer-check-"))
const packed = join(temp, "friendli-stream", "dist-tarballs")
/** @type {string[]} */
const lines = []
try {
  const tarballs = await packAll(packed)
  console.log(`consumer:check: packed ${tarballs.length} packages into ${packed} (${seconds(started)})`)
  const scripts = join(ROOT, "tooling/scripts")
  const more = keep ? ["--keep"] : []
  const checks = [
    { name: "consumer project", args: [join(scripts, "consumer-check.mjs"), "--packed", packed, ...more] },
    { name: "README installs", args: [join(scripts, "readme-install-check.mjs"), "--packed", packed, ...more] },
    { name: "release dry run", args: [join(scripts, "release.mjs"), "patch", "--dry-run"] },
  ]
  const results = await Promise.all(
    checks.map(async ({ name, args }) => {
      const t0 = Date.now()
      const code = await runScript(args)
      return { name, ok: code === 0, time: seconds(t0) }
    }),
  )
  for (const r of results) lines.push(`${r.ok ? "ok" : "FAILED"}: ${r.name} (${r.time})`)
  if (results.some((r) => !r.ok)) process.exitCode = 1
} catch (error) {
  lines.push(`FAILED: ${error instanceof Error ? error.message : error}`)
  process.exitCode = 1
} finally {
  if (keep) console.log(`consumer:check: kept ${temp}`)
  else rmSync(temp, { recursive: true, force: true })
}
console.log(`consumer:check: ${process.exitCode === 1 ? "FAILED" : "ok"} (${seconds(started)})`)
for (const line of lines) console.log(`  ${line}`)
