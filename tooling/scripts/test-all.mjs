#!/usr/bin/env node
// `pnpm test`: every check and every suite, then one summary.
//
//   1. pnpm build            3. typecheck (turbo)     5. publint (turbo)   7. turbo run test: each package's `test`
//   2. biome check .         4. codegen drift check   6. consumer project     script (run-suite.mjs on its runtimes)
//
// Everything runs even when an earlier step failed. Each check counts as one test, passed or failed; each suite
// counts its test cases from <package>/reports/<runtime>.json (written by run-suite.mjs, restored by turbo when the
// package and what it depends on are unchanged: cached suites are not run again). The summary lists the skipped
// tests' reasons, the `measured:` lines tests printed, and the wall time; the last line is
// `N passed, N skipped, N failed`. Exit code 1 when anything failed.
//
// `pnpm test --concurrency=N` (default 3): how many packages turbo tests side by side. Three on two cores: the core's
// property tests keep one core busy while the other suites, which mostly wait on timers, sockets and child
// processes, share the other; no test depends on how busy the machine is (they wait on events, not on delays). `pnpm test --only=<package>` (a turbo filter, repeatable)
// runs only those packages' suites; the checks still run. (`pnpm test --filter` would be pnpm's own filter.)
import { execFileSync, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { RUNTIMES } from "../test-harness/src/files.ts"
import { ROOT } from "../test-harness/src/runtimes.ts"
import { sharedRoot } from "../test-harness/src/shared.ts"

const started = Date.now()
const BIN = join(ROOT, "node_modules/.bin")
const concurrency = process.argv.find((a) => a.startsWith("--concurrency="))?.slice("--concurrency=".length) ?? "3"
const filters = process.argv.filter((a) => a.startsWith("--only=")).map((a) => `--filter=${a.slice("--only=".length)}`)
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", WRANGLER_SEND_METRICS: "false", DENO_NO_UPDATE_CHECK: "1" }

/**
 * What the suites read from outside the repository, as one hash for turbo's cache key (turbo.json's `env`): the
 * shared data's files (path, size, modification time) and whether Chromium is there.
 */
const testData = () => {
  const hash = createHash("sha256")
  const walk = (/** @type {string} */ dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name)
      if (e.isDirectory()) walk(path)
      else if (e.isFile()) hash.update(`${path} ${statSync(path).size} ${statSync(path).mtimeMs}\n`)
    }
  }
  if (existsSync(sharedRoot())) walk(sharedRoot())
  else hash.update("no shared data\n")
  hash.update(`chromium: ${existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")}\n`)
  return hash.digest("hex").slice(0, 16)
}
env.FRIENDLI_TEST_DATA = testData()

/** @type {Array<{ name: string, ok: boolean, seconds: number }>} */
const checks = []

/**
 * Runs one command to its end, its output shown as it comes, and records it as one check.
 *
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 */
const check = async (name, command, args) => {
  console.log(`\n━━━ ${name}: ${[command.replace(`${BIN}/`, ""), ...args].join(" ")} ━━━`)
  const t0 = Date.now()
  const ok = await new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env })
    child.on("error", (error) => {
      console.error(`could not start ${command}: ${error.message}`)
      resolve(false)
    })
    child.on("close", (code) => resolve(code === 0))
  })
  const seconds = (Date.now() - t0) / 1000
  checks.push({ name, ok, seconds })
  console.log(`━━━ ${name}: ${ok ? "ok" : "FAILED"} (${seconds.toFixed(1)}s)`)
}

const turbo = join(BIN, "turbo")
await check("build", turbo, ["run", "build", "--continue=dependencies-successful", "--output-logs=errors-only"])
await check("lint + format", join(BIN, "biome"), ["check", "."])
await check("typecheck", turbo, ["run", "typecheck", "--continue=dependencies-successful", "--output-logs=errors-only"])
await check("codegen drift", process.execPath, [join(ROOT, "tooling/scripts/codegen-check.mjs")])
await check("publint", turbo, ["run", "publint", "--continue", "--output-logs=errors-only"])
await check("consumer project", process.execPath, [join(ROOT, "tooling/scripts/consumer-check.mjs")])
const testArgs = ["run", "test", ...filters, "--continue", `--concurrency=${concurrency}`, "--output-logs=new-only"]
await check("suites (turbo run test)", turbo, testArgs)
// The suites' own outcomes replace that check's one count.
const suitesOk = checks.pop()?.ok ?? false

// The packages turbo tested (as its dry run lists them), and the outcome of each of their suites.
const dry = JSON.parse(execFileSync(turbo, ["run", "test", ...filters, "--dry=json"], { cwd: ROOT, env }).toString())
/** @type {string[]} */
const tested = dry.tasks.filter((t) => t.task === "test" && t.command !== "<NONEXISTENT>").map((t) => t.directory)
/** @type {Array<import("./run-suite.mjs").SuiteResult>} */
const results = []
for (const dir of tested.sort()) {
  for (const runtime of RUNTIMES) {
    const path = join(ROOT, dir, "reports", `${runtime}.json`)
    if (existsSync(path)) results.push(JSON.parse(readFileSync(path, "utf8")))
  }
}

// The summary.
console.log("\n━━━ summary ━━━\n")
for (const c of checks) console.log(`${c.ok ? "✓" : "✗"} ${c.name.padEnd(24)} (${c.seconds.toFixed(1)}s)`)
const packages = [...new Set(results.map((r) => r.package))]
const rows = [
  ["suite: passed/skipped/failed", ...RUNTIMES],
  ...packages.map((p) => [
    p,
    ...RUNTIMES.map((runtime) => {
      const r = results.find((x) => x.package === p && x.runtime === runtime)
      return r === undefined ? "-" : `${r.passed}/${r.skipped}/${r.failed}${r.failed > 0 ? " ✗" : ""}`
    }),
  ]),
]
const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)))
console.log()
for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  "))

for (const r of results.filter((x) => x.failed > 0)) {
  console.log(`\nfailed: ${r.package} on ${r.runtime}`)
  for (const f of [...r.failures.slice(0, 10), ...r.problems]) console.log(`  ✗ ${f}`)
  if (r.failures.length > 10) console.log(`  … and ${r.failures.length - 10} more`)
}

/** @type {Map<string, number>} */
const skips = new Map()
for (const r of results) for (const s of r.skips) skips.set(s, (skips.get(s) ?? 0) + 1)
if (skips.size > 0) {
  console.log("\nskipped:")
  for (const [reason, n] of skips) console.log(`  - ${n} × ${reason}`)
}
const measured = results.flatMap((r) => r.measured.map((m) => `${r.package} on ${r.runtime}: ${m}`))
if (measured.length > 0) {
  console.log("\nmeasured:")
  for (const m of measured) console.log(`  ${m}`)
}

const total = { passed: 0, skipped: 0, failed: 0 }
for (const c of checks) total[c.ok ? "passed" : "failed"]++
for (const r of results) {
  total.passed += r.passed
  total.skipped += r.skipped
  total.failed += r.failed
}
if (!suitesOk && results.every((r) => r.failed === 0)) {
  console.log("\n✗ turbo run test failed, and no suite says why (see its output above)")
  total.failed++
}
if (results.length === 0) {
  console.log("\n✗ no suite ran: nothing was tested")
  total.failed++
}
console.log(`\npnpm test took ${((Date.now() - started) / 1000).toFixed(0)}s`)
const reasons = [...skips.keys()].map((s) => s.replace(/ \(reference data beside.*\)$/, ""))
console.log(
  `${total.passed} passed, ${total.skipped} skipped, ${total.failed} failed` +
    (reasons.length > 0 ? ` (skipped: ${reasons.join("; ")})` : ""),
)
process.exitCode = total.failed === 0 ? 0 : 1
