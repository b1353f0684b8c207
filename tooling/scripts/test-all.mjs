#!/usr/bin/env node
// `pnpm test`: every check and every suite, then one summary.
//
//   1. pnpm build                     4. codegen drift check      7. every package with a test/ folder
//   2. biome check . (lint + format)  5. publint, per publishable    on each runtime it declares
//   3. pnpm typecheck (turbo)            package                     (default: node22 node24 deno bun workerd)
//                                     6. consumer project (tooling/scripts/consumer-check.mjs: the packed
//                                        packages installed by npm outside the repo, the README examples)
//
// Everything runs even when an earlier step failed (turbo too: it goes on with the packages whose
// dependencies built). Each check counts as one test, passed or failed;
// each suite counts its test cases from its JUnit report (reports/<package>/<runtime>.xml), plus one
// failure for a runner that did not start, ran no test or failed outside its tests. A runtime whose binary is
// missing (no Node 22 or 24 package on this platform, see run-suite.mjs) is not run: each of its suites counts as one
// skipped test, and the summary says why; in CI each counts as a failure instead. The last line is
// `N passed, N failed` (`, N skipped` when some were). Exit code 1 when anything failed.
//
// `pnpm test --jobs=N` (default 1): how many suites run side by side; with more than one, each suite's
// output is printed whole when it ends. One at a time by default: on 2 cores, two CPU-bound suites side
// by side take nearly as long in total and push slow tests past their timeouts.
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { RUNTIMES } from "../test-harness/src/files.mjs"
import { parseJUnit } from "./lib/junit.mjs"
import { plan, ROOT, readManifest, reportName, runSuite, unavailableRuntimes, workspacePackages } from "./run-suite.mjs"

process.env.TURBO_TELEMETRY_DISABLED = "1"
process.env.WRANGLER_SEND_METRICS = "false"
process.env.DENO_NO_UPDATE_CHECK = "1"

const started = Date.now()
const BIN = join(ROOT, "node_modules/.bin")
const jobsArg = process.argv.find((a) => a.startsWith("--jobs="))
const jobs = Math.max(1, Number(jobsArg?.slice("--jobs=".length) ?? 1) || 1)

/** @type {Array<{ name: string, ok: boolean, seconds: number, detail: string }>} */
const checks = []

/**
 * Runs one check to its end, its output shown as it comes, and records it as one test.
 *
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string }} [options]
 */
const check = async (name, command, args, options = {}) => {
  console.log(`\n━━━ ${name}: ${[command, ...args].map((a) => relative(ROOT, a) || a).join(" ")} ━━━`)
  const t0 = Date.now()
  const outcome = await new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, stdio: ["ignore", "inherit", "inherit"] })
    child.on("error", (error) => resolve({ ok: false, detail: `could not start: ${error.message}` }))
    child.on("close", (code, signal) =>
      resolve(code === 0 ? { ok: true, detail: "" } : { ok: false, detail: `exited with ${code ?? signal}` }),
    )
  })
  const seconds = (Date.now() - t0) / 1000
  checks.push({ name, seconds, ...outcome })
  console.log(`━━━ ${name}: ${outcome.ok ? "ok" : `FAILED (${outcome.detail})`} (${seconds.toFixed(1)}s)`)
}

await check("build", "pnpm", ["build", "--continue=dependencies-successful"])
await check("lint + format", join(BIN, "biome"), ["check", "."])
await check("typecheck", "pnpm", ["typecheck", "--continue=dependencies-successful"])
await check("codegen drift", process.execPath, [join(ROOT, "tooling/scripts/codegen-check.mjs")])
for (const dir of workspacePackages()) {
  const manifest = readManifest(dir)
  if (manifest.private === true) continue
  await check(`publint ${manifest.name}`, join(BIN, "publint"), ["run", dir], { cwd: dir })
}
await check("consumer project", process.execPath, [join(ROOT, "tooling/scripts/consumer-check.mjs")])

// The suites, `jobs` at a time.
const { pairs, errors } = plan(["all"], [])
for (const e of errors) {
  console.error(`\n✗ ${e}`)
  checks.push({ name: "test settings", ok: false, seconds: 0, detail: e })
}
/** @type {Array<import("./run-suite.mjs").SuiteResult>} */
const results = []
let cursor = 0
await Promise.all(
  Array.from({ length: Math.min(jobs, pairs.length) }, async () => {
    while (cursor < pairs.length) {
      const pair = pairs[cursor++]
      if (pair !== undefined) results.push(await runSuite(pair.dir, pair.runtime, { buffered: jobs > 1 }))
    }
  }),
)

// The summary.
const packages = [...new Set(pairs.map((p) => p.dir))]
const cell = (/** @type {string} */ dir, /** @type {string} */ runtime) => {
  const r = results.find((x) => x.dir === dir && x.runtime === runtime)
  if (r === undefined) return "-"
  if (r.unavailable !== undefined) return "skipped"
  return `${r.passed}/${r.failed}/${r.skipped}${r.failed > 0 ? " ✗" : ""}`
}
const rows = [
  ["package", ...RUNTIMES],
  ...packages.map((dir) => [reportName(dir), ...RUNTIMES.map((r) => cell(dir, r))]),
]
const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length))) ?? []
const line = (/** @type {string[]} */ row) => row.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ")

console.log("\n━━━ summary ━━━\n")
for (const c of checks) {
  console.log(`${c.ok ? "✓" : "✗"} ${c.name.padEnd(40)} ${c.ok ? "" : `${c.detail} `}(${c.seconds.toFixed(1)}s)`)
}
console.log("\nsuites: passed/failed/skipped per package and runtime (- = not declared, skipped = runtime missing)\n")
console.log(line(rows[0] ?? []))
console.log(line(widths.map((w) => "─".repeat(w))))
for (const row of rows.slice(1)) console.log(line(row))
const firstLine = (/** @type {string} */ s) => {
  const first = s.trim().split("\n")[0] ?? ""
  return first.length > 100 ? `${first.slice(0, 100)}…` : first
}
const failedSuites = results.filter((r) => r.failed > 0)
if (failedSuites.length > 0) {
  console.log("\nfailed:")
  for (const r of failedSuites) {
    const cases = existsSync(r.report) ? parseJUnit(readFileSync(r.report, "utf8")) : []
    const names = cases
      .filter((c) => c.status === "failed")
      .map((c) => (c.message === "" ? c.name : `${c.name}: ${firstLine(c.message)}`))
    console.log(`  ${r.package} on ${r.runtime}:`)
    for (const n of names.slice(0, 10)) console.log(`    ✗ ${n}`)
    if (names.length > 10) console.log(`    … and ${names.length - 10} more`)
    for (const p of r.problems) console.log(`    ✗ ${p}`)
  }
}

const unavailable = unavailableRuntimes(results)
if (unavailable.length > 0) {
  console.log("\nnot run (counted as skipped):")
  for (const u of unavailable) console.log(`  - ${u}`)
}

const total = { passed: 0, failed: 0, skipped: 0 }
for (const c of checks) total[c.ok ? "passed" : "failed"]++
for (const r of results) {
  total.passed += r.passed
  total.failed += r.failed
  total.skipped += r.skipped
}
if (pairs.length === 0) {
  console.log("\n✗ no package has a test/ folder: nothing was tested")
  total.failed++
}
console.log(`\npnpm test took ${((Date.now() - started) / 1000).toFixed(0)}s`)
console.log(`\n${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ""}`)
process.exitCode = total.failed === 0 ? 0 : 1
