#!/usr/bin/env node
// Runs one package's test suite on one or more runtimes, each with its own runner:
//
//   node tooling/scripts/run-suite.mjs <node22|node24|deno|bun|workerd|all>... [--package <dir>]
//
// The package is the working directory unless --package names one (each package's `test` script runs it on the
// runtimes it supports; turbo's `test` task runs those scripts). node22 / node24: vitest on that Node
// (tooli../test-harness/src/runtimes.ts says which binary); deno: deno test; bun: bun test; workerd: vitest with
// @cloudflare/vitest-pool-workers. Every runner writes a JUnit report to <package>/reports/<runtime>.xml; this
// script reads it and writes <package>/reports/<runtime>.json, the suite's outcome that `pnpm test` sums up:
// counts, the reasons of skipped tests (it.skipIf puts them in the test's name), failures, the `measured:` lines
// that tests print, and problems. A problem counts as one failed test: a runner that did not start, wrote no report,
// ran no test, failed outside its tests (a module that throws while loading), or exited non-zero with no failed
// test. A runtime whose binary is missing is not run: one skipped test with the reason, or in CI one failed test.
// Exit code: 0 when nothing failed.
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { delimiter, dirname, join, relative, resolve } from "node:path"
import { stripVTControlCharacters } from "node:util"
import { RUNTIMES, testFiles } from "../test-harness/src/files.ts"
import { missingRuntimeCounts, ROOT, runtimeBinary } from "../test-harness/src/runtimes.ts"
import { parseJUnit } from "./lib/junit.mjs"
import { noiseFilter } from "./lib/noise.ts"

const HARNESS = join(ROOT, "tooling/test-harness")
const VITEST = join(ROOT, "node_modules/vitest/vitest.mjs")
/** One suite on one runtime may take this long before it is killed and counted as failed. */
const SUITE_TIMEOUT_MS = 10 * 60_000
const USAGE = "usage: run-suite.mjs <node22|node24|deno|bun|workerd|all>... [--package <dir>]"

/**
 * How to run a package's suite on one runtime.
 *
 * @param {string} runtime
 * @param {string} binary the runtime's executable (runtimeBinary)
 * @param {string[]} files test files relative to the package folder
 * @param {string} report absolute path of the JUnit report
 * @returns {{ args: string[], env?: Record<string, string> }}
 */
const commandFor = (runtime, binary, files, report) => {
  switch (runtime) {
    case "deno":
      return {
        args: [
          "test",
          "--allow-all",
          "--no-check",
          "--config",
          join(ROOT, "deno.json"),
          `--junit-path=${report}`,
        ].concat(files.map((f) => `./${f}`)),
        env: { DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
      }
    case "bun":
      return { args: ["test", "--reporter=junit", `--reporter-outfile=${report}`, ...files.map((f) => `./${f}`)] }
    default:
      return {
        args: [
          VITEST,
          "run",
          `--config=${join(HARNESS, runtime === "workerd" ? "vitest.workerd.mjs" : "vitest.node.mjs")}`,
          "--configLoader=native",
          "--reporter=default",
          "--reporter=junit",
          `--outputFile.junit=${report}`,
        ],
        // A `node` that the tests or vitest start is this same Node.
        env: { PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ""}` },
      }
  }
}

/**
 * Errors that a runner reports outside any test case, and so outside its JUnit report: a test module that throws
 * while loading (deno, bun), an unhandled error or rejection (vitest, bun).
 *
 * @param {string} runtime
 * @param {string} output the runner's stdout and stderr, colours stripped
 * @returns {string[]}
 */
const errorsOutsideTests = (runtime, output) => {
  if (runtime === "deno") {
    return [...output.matchAll(/^Uncaught error from (\S+) FAILED/gm)].map((m) => `uncaught error from ${m[1]}`)
  }
  const count =
    runtime === "bun"
      ? Number(/^ *(\d+) errors?\s*\n\s*Ran \d+ tests?/m.exec(output)?.[1] ?? 0)
      : Number(/^\s*Errors\s+(\d+) errors?\b/m.exec(output)?.[1] ?? 0)
  return count > 0 ? [`${count} error${count === 1 ? "" : "s"} outside tests (see the runner's output above)`] : []
}

/**
 * Runs the runner to its end, its output shown as it comes; resolves with its exit code (null: it did not start,
 * `problems` says why) and its output.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {string} cwd
 * @param {Record<string, string>} env
 * @param {string[]} problems
 * @returns {Promise<{ code: number | null, output: string }>}
 */
const runRunner = (command, args, cwd, env, problems) =>
  new Promise((done) => {
    let output = ""
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true, env })
    // shown without workerd's stacks for a client that went away (noise.ts); parsed whole
    const show = (/** @type {NodeJS.WriteStream} */ to) => {
      const filter = noiseFilter((text) => to.write(text))
      child.on("close", () => filter.end())
      return (/** @type {string} */ chunk) => {
        filter.push(chunk)
        output += chunk
      }
    }
    child.stdout.setEncoding("utf8")
    child.stderr.setEncoding("utf8")
    child.stdout.on("data", show(process.stdout))
    child.stderr.on("data", show(process.stderr))
    const timer = setTimeout(() => {
      problems.push(`killed after ${SUITE_TIMEOUT_MS / 1000}s`)
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    }, SUITE_TIMEOUT_MS)
    child.on("error", (error) => {
      clearTimeout(timer)
      problems.push(`could not start ${command}: ${error.message}`)
      done({ code: null, output })
    })
    child.on("close", (status, signal) => {
      clearTimeout(timer)
      done({ code: status ?? (signal === null ? 1 : 128), output: stripVTControlCharacters(output) })
    })
  })

/**
 * One suite's outcome, as written to <package>/reports/<runtime>.json.
 *
 * @typedef {{ package: string, runtime: string, passed: number, failed: number, skipped: number,
 *   skips: string[], failures: string[], measured: string[], problems: string[], seconds: number }} SuiteResult
 */

/** The reason a skipped test gives in its name (`it.skipIf`), or what to say when it gives none. */
const skipReason = (/** @type {string} */ name) =>
  /\[skipped: (.*)\]$/.exec(name)?.[1] ?? `no reason given (${name.slice(0, 80)})`

/**
 * Runs a package's suite on one runtime and writes its outcome.
 *
 * @param {string} dir package folder
 * @param {string} runtime
 * @returns {Promise<SuiteResult>}
 */
const runSuite = async (dir, runtime) => {
  const name = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name
  const report = join(dir, "reports", `${runtime}.xml`)
  /** @type {SuiteResult} */
  const result = {
    package: name,
    runtime,
    passed: 0,
    failed: 0,
    skipped: 0,
    skips: [],
    failures: [],
    measured: [],
    problems: [],
    seconds: 0,
  }
  const started = Date.now()
  mkdirSync(dirname(report), { recursive: true })
  console.log(`\n━━━ ${name} on ${runtime} ━━━`)

  const files = testFiles(dir, /** @type {"node22"} */ (runtime))
  const binary = runtimeBinary(/** @type {"node22"} */ (runtime))
  if (files.length === 0) {
    result.problems.push(`no test file for ${runtime} under ${relative(ROOT, dir)}/test`)
  } else if ("missing" in binary) {
    if (missingRuntimeCounts() === "failed")
      result.problems.push(`${binary.missing} (CI is set: every runtime must run)`)
    else {
      result.skipped = 1
      result.skips.push(`${runtime} not run: ${binary.missing}`)
    }
  } else {
    const { args, env } = commandFor(runtime, binary.path, files, report)
    const { code, output } = await runRunner(
      binary.path,
      args,
      dir,
      {
        ...process.env,
        FRIENDLI_TEST_RUNTIME: runtime,
        // The tests run in the package's folder: a relative FRIENDLI_SHARED_DIR is taken from where this runs.
        ...(process.env.FRIENDLI_SHARED_DIR ? { FRIENDLI_SHARED_DIR: resolve(process.env.FRIENDLI_SHARED_DIR) } : {}),
        // The runner writes to a pipe (ours): colours when we write to a terminal, none in a log file.
        ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : { NO_COLOR: "1" }),
        ...env,
      },
      result.problems,
    )
    result.problems.push(...errorsOutsideTests(runtime, output))
    result.measured = [...new Set([...output.matchAll(/^.*?(measured: .*)$/gm)].map((m) => m[1] ?? ""))]
    if (existsSync(report)) {
      for (const c of parseJUnit(readFileSync(report, "utf8"))) {
        result[c.status]++
        if (c.status === "skipped") result.skips.push(skipReason(c.name))
        if (c.status === "failed") result.failures.push(`${c.name}: ${c.message.split("\n")[0]?.slice(0, 160)}`)
      }
      if (result.passed + result.failed + result.skipped === 0) result.problems.push("ran no test")
      if (code !== null && code !== 0 && result.failed === 0) {
        result.problems.push(`runner exited with code ${code} although no test case failed (see its output above)`)
      }
    } else if (code !== null) {
      result.problems.push(`runner exited with code ${code} and wrote no JUnit report`)
    }
  }
  // Every problem counts as one failed test, so that nothing that went wrong passes unseen.
  result.failed += result.problems.length
  result.seconds = (Date.now() - started) / 1000
  writeFileSync(join(dir, "reports", `${runtime}.json`), `${JSON.stringify(result, null, 2)}\n`)
  const lines = [
    `━━━ ${name} on ${runtime}: ${result.failed > 0 ? "FAILED" : "ok"}: ${result.passed} passed, ` +
      `${result.skipped} skipped, ${result.failed} failed (${result.seconds.toFixed(1)}s)`,
    ...result.problems.map((p) => `    ✗ ${p}`),
    ...[...new Set(result.skips)].map((s) => `    - skipped: ${s}`),
    ...result.measured.map((m) => `    ${m}`),
  ]
  console.log(lines.join("\n"))
  return result
}

const argv = process.argv.slice(2)
/** @type {string[]} */
const runtimes = []
let dir = process.cwd()
for (let i = 0; i < argv.length; i++) {
  const a = argv[i] ?? ""
  if (a === "--package") dir = resolve(argv[++i] ?? "")
  else if (a.startsWith("--package=")) dir = resolve(a.slice("--package=".length))
  else if (a === "all") runtimes.push(...RUNTIMES)
  else if (RUNTIMES.includes(/** @type {"node22"} */ (a))) runtimes.push(a)
  else {
    console.error(a === "--help" || a === "-h" ? USAGE : `run-suite: unknown argument "${a}"\n${USAGE}`)
    process.exit(a === "--help" || a === "-h" ? 0 : 2)
  }
}
if (runtimes.length === 0 || !existsSync(join(dir, "package.json"))) {
  console.error(runtimes.length === 0 ? USAGE : `run-suite: ${dir} has no package.json`)
  process.exit(2)
}
// The reports of an earlier run go: what is left is this run's (pnpm test reads every reports/<runtime>.json).
for (const runtime of RUNTIMES) {
  for (const ext of ["xml", "json"]) rmSync(join(dir, "reports", `${runtime}.${ext}`), { force: true })
}
let failed = 0
for (const runtime of new Set(runtimes)) failed += (await runSuite(dir, runtime)).failed
process.exitCode = failed === 0 ? 0 : 1
