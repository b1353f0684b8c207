#!/usr/bin/env node
// `pnpm test`'s last step: the one summary of the turbo run before it (`turbo run ... --summarize`), read from
// turbo's run summary (the newest .turbo/runs/*.json) and from each suite's JUnit report
// (<package>/reports/<runtime>.xml, written by the runtime's own runner, restored by turbo when cached).
//
// Each check (build, lint, typecheck, codegen:check, publint, consumer:check) counts as one test, passed when every
// task of it exited 0. Each `test:<runtime>` task counts its test cases; a suite that wrote no report, ran no test,
// or exited non-zero with no failed test case (a module that threw while loading, an error outside any test) counts
// one failed test more. Printed: the checks, a table per package and runtime, the failures, the skipped tests'
// reasons (it.skipIf puts them in the name), the `measured:` lines tests printed (from turbo's task logs), the wall
// time, and last `N passed, N skipped, N failed`. Exit code 1 when anything failed.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { stripVTControlCharacters } from "node:util"
import { parseJUnit } from "../test-harness/src/junit.ts"
import { missingRuntimeCounts, ROOT, RUNTIMES, runtimeBinary } from "../test-harness/src/runtimes.ts"

const runs = join(ROOT, ".turbo/runs")
const newest = existsSync(runs)
  ? readdirSync(runs)
      .filter((f) => f.endsWith(".json"))
      .map((f) => join(runs, f))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  : undefined
if (newest === undefined) {
  console.log("no turbo run summary under .turbo/runs: run `pnpm test`\n0 passed, 0 skipped, 1 failed")
  process.exit(1)
}
const run = JSON.parse(readFileSync(newest, "utf8"))
const tasks = run.tasks.filter((/** @type {{ command: string }} */ t) => t.command !== "<NONEXISTENT>")
const exitCode = (/** @type {{ execution?: { exitCode?: number | null } }} */ t) => t.execution?.exitCode ?? null

/** @type {Map<string, boolean>} */
const checks = new Map()
/** @type {Array<{ package: string, runtime: string, passed: number, skipped: number, failed: number,
 *   skips: string[], failures: string[], measured: string[] }>} */
const suites = []
for (const t of tasks) {
  const runtime = t.task.startsWith("test:") ? t.task.slice("test:".length) : undefined
  if (runtime === undefined) {
    checks.set(t.task, (checks.get(t.task) ?? true) && exitCode(t) === 0)
    continue
  }
  const suite = { package: t.package, runtime, passed: 0, skipped: 0, failed: 0, skips: [], failures: [], measured: [] }
  suites.push(suite)
  // Where the registry has no Node package (macOS, Windows), the script's Node binary is missing: the suite counts
  // as one skipped test with the reason, or in CI as one failed test.
  const binary = runtimeBinary(runtime)
  if ("missing" in binary) {
    if (missingRuntimeCounts() === "skipped") suite.skipped = suite.skips.push(`${runtime} not run: ${binary.missing}`)
    else suite.failed = suite.failures.push(`${binary.missing} (CI is set: every runtime must run)`)
    continue
  }
  const report = join(ROOT, t.directory, "reports", `${runtime}.xml`)
  const fresh = t.cache?.status === "HIT" || (existsSync(report) && statSync(report).mtimeMs >= t.execution.startTime)
  if (existsSync(report) && fresh) {
    for (const c of parseJUnit(readFileSync(report, "utf8"))) {
      suite[c.status]++
      if (c.status === "skipped") suite.skips.push(/\[skipped: (.*)\]$/.exec(c.name)?.[1] ?? `no reason (${c.name})`)
      if (c.status === "failed") suite.failures.push(`${c.name}: ${c.message.split("\n")[0]?.slice(0, 160)}`)
    }
    if (suite.passed + suite.skipped + suite.failed === 0) suite.failures.push("ran no test")
  } else suite.failures.push(`wrote no reports/${runtime}.xml (exit code ${exitCode(t)}; see its output above)`)
  if (exitCode(t) !== 0 && suite.failed === 0 && suite.failures.length === 0) {
    suite.failures.push(`exited with code ${exitCode(t)} although no test case failed (see its output above)`)
  }
  suite.failed = Math.max(suite.failed, suite.failures.length)
  const log = t.logFile === undefined ? "" : join(ROOT, t.logFile)
  if (log !== "" && existsSync(log)) {
    const text = stripVTControlCharacters(readFileSync(log, "utf8"))
    suite.measured = [...new Set([...text.matchAll(/^.*?(measured: .*)$/gm)].map((m) => m[1] ?? ""))]
  }
}

console.log("\n━━━ summary ━━━\n")
for (const [name, ok] of checks) console.log(`${ok ? "✓" : "✗"} ${name}`)
const packages = [...new Set(suites.map((s) => s.package))].sort()
const rows = [
  ["suite: passed/skipped/failed", ...RUNTIMES],
  ...packages.map((p) => [
    p,
    ...RUNTIMES.map((runtime) => {
      const s = suites.find((x) => x.package === p && x.runtime === runtime)
      return s === undefined ? "-" : `${s.passed}/${s.skipped}/${s.failed}${s.failed > 0 ? " ✗" : ""}`
    }),
  ]),
]
const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)))
console.log()
for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  "))

for (const s of suites.filter((x) => x.failed > 0)) {
  console.log(`\nfailed: ${s.package} on ${s.runtime}`)
  for (const f of s.failures.slice(0, 10)) console.log(`  ✗ ${f}`)
  if (s.failures.length > 10) console.log(`  … and ${s.failures.length - 10} more`)
}
/** @type {Map<string, number>} */
const skips = new Map()
for (const s of suites) for (const reason of s.skips) skips.set(reason, (skips.get(reason) ?? 0) + 1)
if (skips.size > 0) console.log(`\nskipped:\n${[...skips].map(([r, n]) => `  - ${n} × ${r}`).join("\n")}`)
const measured = suites.flatMap((s) => s.measured.map((m) => `  ${s.package} on ${s.runtime}: ${m}`))
if (measured.length > 0) console.log(`\nmeasured:\n${measured.join("\n")}`)

const total = { passed: 0, skipped: 0, failed: 0 }
for (const ok of checks.values()) total[ok ? "passed" : "failed"]++
for (const s of suites) {
  total.passed += s.passed
  total.skipped += s.skipped
  total.failed += s.failed
}
if (suites.length === 0) {
  console.log("\n✗ no suite ran: nothing was tested")
  total.failed++
}
console.log(`\npnpm test took ${((Date.now() - run.execution.startTime) / 1000).toFixed(0)}s`)
const reasons = [...skips.keys()].map((s) => s.replace(/ \(reference data beside.*\)$/, ""))
console.log(
  `${total.passed} passed, ${total.skipped} skipped, ${total.failed} failed` +
    (reasons.length > 0 ? ` (skipped: ${reasons.join("; ")})` : ""),
)
process.exitCode = total.failed === 0 ? 0 : 1
