#!/usr/bin/env node
// Runs the test suites of workspace packages on one or more runtimes, each with its own runner:
//
//   node tooling/scripts/run-suite.mjs <runtime|all>... [--package <dir>]...
//
// runtimes: node22 (vitest on Node 22, tooling/node22's node-linux-<arch>), node24 (vitest on Node 24, the root's
// node-linux-<arch>, which pnpm links as node_modules/.bin/node), deno (deno test), bun (bun test), workerd (vitest
// + @cloudflare/vitest-pool-workers, on Node 24); `all` = all five. Where a Node package is not installed (it exists
// for Linux x64 and arm64 only), the Node running this script stands in for the runtime of its major version.
// Without --package, every workspace package with a test/ folder runs. A package may narrow its runtimes
// with "friendli-stream": { "runtimes": [...] } in its package.json: `all` runs only those; a runtime
// named on the command line runs whatever the package declares.
//
// Each run prints the runner's own output and writes reports/<package>/<runtime>.xml (JUnit). A run
// that fails to start, writes no report, reports no test, or exits non-zero while its report shows no
// failure, counts as one failed test. A runtime whose binary is missing (see tooling/test-harness/src/runtimes.mjs)
// is not run: its suites count as one skipped test each, with the reason, except when CI is set, where each counts
// as one failed test. Exit code: 0 when no run failed.
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, delimiter, dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { stripVTControlCharacters } from "node:util"
import { RUNTIMES, testFiles } from "../test-harness/src/files.mjs"
import { missingRuntimeCounts, ROOT, runtimeBinary } from "../test-harness/src/runtimes.mjs"
import { countCases, escapeXml, parseJUnit } from "./lib/junit.mjs"

export { ROOT, RUNTIMES }

const HARNESS = join(ROOT, "tooling/test-harness")
const VITEST = join(ROOT, "node_modules/vitest/vitest.mjs")
/** One suite on one runtime may take this long before it is killed and counted as failed. */
const SUITE_TIMEOUT_MS = 10 * 60_000

/** The workspace package folders (pnpm-workspace.yaml's `packages:` globs of the form `dir/*` or `dir`). */
export const workspacePackages = () => {
  const yaml = readFileSync(join(ROOT, "pnpm-workspace.yaml"), "utf8")
  const block = /^packages:\s*\n((?:[ \t]+-.*\n?)+)/m.exec(yaml)?.[1] ?? ""
  const globs = [...block.matchAll(/-\s*["']?([^"'\n#]+?)["']?\s*(?:#.*)?$/gm)].map((m) => m[1] ?? "")
  /** @type {string[]} */
  const dirs = []
  for (const glob of globs) {
    if (glob.endsWith("/*")) {
      const parent = join(ROOT, glob.slice(0, -2))
      if (!existsSync(parent)) continue
      for (const e of readdirSync(parent, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (e.isDirectory()) dirs.push(join(parent, e.name))
      }
    } else {
      dirs.push(join(ROOT, glob))
    }
  }
  return dirs.filter((d) => existsSync(join(d, "package.json")))
}

/** @param {string} dir */
export const readManifest = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))

/** The workspace packages that have a test/ folder. */
export const testedPackages = () => workspacePackages().filter((d) => existsSync(join(d, "test")))

/** `@friendli-stream/core` -> `core`: the folder name of the package's reports. */
/** @param {string} dir */
export const reportName = (dir) => {
  const name = readManifest(dir).name ?? basename(dir)
  return String(name)
    .replace(/^@[^/]+\//, "")
    .replace(/[^\w.-]+/g, "-")
}

/**
 * The runtimes a package declares (default: all five); throws on a name that is not a runtime.
 *
 * @param {string} dir
 * @returns {string[]}
 */
export const declaredRuntimes = (dir) => {
  const declared = readManifest(dir)["friendli-stream"]?.runtimes
  if (declared === undefined) return [...RUNTIMES]
  if (!Array.isArray(declared) || declared.length === 0) {
    throw new Error(`${relative(ROOT, dir)}/package.json: "friendli-stream".runtimes must be a non-empty array`)
  }
  for (const r of declared) {
    if (!RUNTIMES.includes(r)) {
      throw new Error(`${relative(ROOT, dir)}/package.json: unknown runtime "${r}"; expected ${RUNTIMES.join(", ")}`)
    }
  }
  return RUNTIMES.filter((r) => declared.includes(r))
}

const stripAnsi = stripVTControlCharacters

/**
 * `deno test` files every test under the module that called `Deno.test` (the harness), not the test
 * file: regroup the report's test cases into one suite per test file, from the "running N tests from
 * FILE" lines of its output. Leaves the report as it is when the counts do not add up.
 *
 * @param {string} reportPath
 * @param {string} output
 */
const regroupDenoReport = (reportPath, output) => {
  if (!existsSync(reportPath)) return
  const xml = readFileSync(reportPath, "utf8")
  const files = [...stripAnsi(output).matchAll(/^running (\d+) tests? from (\S+)\s*$/gm)].map((m) => ({
    count: Number(m[1]),
    file: m[2] ?? "",
  }))
  const raw = [...xml.matchAll(/<testcase\b[^>]*?(?:\/>|>[\s\S]*?<\/testcase>)/g)].map((m) => m[0])
  if (files.reduce((n, f) => n + f.count, 0) !== raw.length) return
  const head = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? '<testsuites name="deno test">'
  let next = 0
  const suites = files.map(({ count, file }) => {
    const first = next
    next += count
    const cases = raw.slice(first, next).map((c) => c.replace(/\bclassname="[^"]*"/, `classname="${escapeXml(file)}"`))
    const n = countCases(parseJUnit(cases.join("\n")))
    return [
      `    <testsuite name="${escapeXml(file)}" tests="${count}" disabled="0" errors="0" failures="${n.failed}">`,
      ...cases.map((c) => `        ${c}`),
      "    </testsuite>",
    ].join("\n")
  })
  writeFileSync(reportPath, ['<?xml version="1.0" encoding="UTF-8"?>', head, ...suites, "</testsuites>", ""].join("\n"))
}

/**
 * Errors that the runner reports outside any test case, and so outside its JUnit report: a test module
 * that throws while loading (deno, bun), an unhandled error or rejection (vitest, bun).
 *
 * @param {string} runtime
 * @param {string} output the runner's stdout and stderr
 * @returns {string[]}
 */
const errorsOutsideTests = (runtime, output) => {
  const text = stripAnsi(output)
  if (runtime === "deno") {
    return [...text.matchAll(/^Uncaught error from (\S+) FAILED/gm)].map((m) => `uncaught error from ${m[1]}`)
  }
  const count =
    runtime === "bun"
      ? Number(/^ *(\d+) errors?\s*\n\s*Ran \d+ tests?/m.exec(text)?.[1] ?? 0)
      : Number(/^\s*Errors\s+(\d+) errors?\b/m.exec(text)?.[1] ?? 0)
  return count > 0 ? [`${count} error${count === 1 ? "" : "s"} outside tests (see the runner's output above)`] : []
}

/**
 * How to run one package's suite on one runtime.
 *
 * @param {string} runtime
 * @param {string} binary the runtime's executable (runtimeBinary)
 * @param {string[]} files test files relative to the package folder
 * @param {string} report absolute path of the JUnit report
 * @returns {{ command: string, args: string[], env?: Record<string, string> }}
 */
const commandFor = (runtime, binary, files, report) => {
  const vitest = (/** @type {string} */ config) => ({
    command: binary,
    args: [
      VITEST,
      "run",
      "--config",
      join(HARNESS, config),
      "--configLoader",
      "native",
      "--reporter=default",
      "--reporter=junit",
      `--outputFile.junit=${report}`,
    ],
  })
  switch (runtime) {
    case "node22":
    case "node24":
    case "workerd":
      return {
        ...vitest(runtime === "workerd" ? "vitest.workerd.mjs" : "vitest.node.mjs"),
        // A `node` that the tests or vitest start is this same Node.
        env: { PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ""}` },
      }
    case "deno":
      return {
        command: binary,
        args: [
          "test",
          "--allow-all",
          "--no-check",
          "--config",
          join(ROOT, "deno.json"),
          `--junit-path=${report}`,
          ...files.map((f) => `./${f}`),
        ],
        env: { DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
      }
    case "bun":
      return {
        command: binary,
        args: ["test", "--reporter=junit", `--reporter-outfile=${report}`, ...files.map((f) => `./${f}`)],
      }
    default:
      throw new Error(`unknown runtime "${runtime}"; expected one of ${RUNTIMES.join(", ")}`)
  }
}

/**
 * One suite's outcome. `unavailable`: the suite did not run because its runtime's binary is missing, and why.
 *
 * @typedef {{ package: string, dir: string, runtime: string, passed: number, failed: number, skipped: number,
 *   problems: string[], unavailable?: string, report: string, seconds: number }} SuiteResult
 */

/**
 * The JUnit report of a suite that did not run: one skipped test case that says why.
 *
 * @param {string} name package report name
 * @param {string} runtime
 * @param {string} reason
 */
const unavailableReport = (name, runtime, reason) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(`${name} on ${runtime}`)}" tests="1" failures="0" errors="0" skipped="1">`,
    `    <testsuite name="${escapeXml(runtime)}" tests="1" failures="0" errors="0" skipped="1">`,
    `        <testcase classname="${escapeXml(runtime)}" name="${escapeXml(`${runtime} is unavailable`)}">`,
    `            <skipped message="${escapeXml(reason)}"/>`,
    "        </testcase>",
    "    </testsuite>",
    "</testsuites>",
    "",
  ].join("\n")

/**
 * Runs one package's suite on one runtime, printing the runner's output, and reads its JUnit report.
 *
 * @param {string} dir package folder
 * @param {string} runtime
 * @param {{ buffered?: boolean }} [options] `buffered`: print the whole output in one piece when the run
 *   is over (for runs side by side), instead of as it comes.
 * @returns {Promise<SuiteResult>}
 */
export const runSuite = async (dir, runtime, options = {}) => {
  /** @type {Array<[NodeJS.WriteStream, string | Uint8Array]>} */
  const held = []
  /** @param {NodeJS.WriteStream} stream @param {string | Uint8Array} chunk */
  const print = (stream, chunk) => (options.buffered ? held.push([stream, chunk]) : stream.write(chunk))
  const name = reportName(dir)
  const report = join(ROOT, "reports", name, `${runtime}.xml`)
  /** @type {SuiteResult} */
  const result = { package: name, dir, runtime, passed: 0, failed: 0, skipped: 0, problems: [], report, seconds: 0 }
  const started = Date.now()
  rmSync(report, { force: true })
  mkdirSync(dirname(report), { recursive: true })
  print(process.stdout, `\n━━━ ${name} on ${runtime} (${relative(ROOT, dir)}) ━━━\n`)

  const files = testFiles(dir, /** @type {"node22"} */ (runtime))
  const binary = runtimeBinary(/** @type {"node22"} */ (runtime))
  if (files.length === 0) {
    result.problems.push(`no test file for ${runtime} under ${relative(ROOT, dir)}/test`)
  } else if ("missing" in binary) {
    // Not run: skipped with the reason, except in CI, where every runtime must be there.
    if (missingRuntimeCounts() === "failed") {
      result.problems.push(`${binary.missing} (CI is set: every runtime must run)`)
    } else {
      result.unavailable = binary.missing
      writeFileSync(report, unavailableReport(name, runtime, binary.missing))
      Object.assign(result, countCases(parseJUnit(readFileSync(report, "utf8"))))
    }
  } else {
    /** @type {number | null} */
    let code = null
    let output = ""
    try {
      const { command, args, env } = commandFor(runtime, binary.path, files, report)
      code = await new Promise((resolvePromise, reject) => {
        const child = spawn(command, args, {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe"],
          detached: true,
          env: {
            ...process.env,
            TURBO_TELEMETRY_DISABLED: "1",
            WRANGLER_SEND_METRICS: "false",
            FRIENDLI_TEST_RUNTIME: runtime,
            // The runner writes to a pipe (ours): colours when we write to a terminal, none in a log file.
            ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : { NO_COLOR: "1" }),
            ...env,
          },
        })
        child.stdout.on("data", (chunk) => {
          print(process.stdout, chunk)
          output += chunk
        })
        child.stderr.on("data", (chunk) => {
          print(process.stderr, chunk)
          output += chunk
        })
        const timer = setTimeout(() => {
          result.problems.push(`killed after ${SUITE_TIMEOUT_MS / 1000}s`)
          try {
            if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
          } catch {}
        }, SUITE_TIMEOUT_MS)
        child.on("error", (error) => {
          clearTimeout(timer)
          reject(error)
        })
        child.on("close", (status, signal) => {
          clearTimeout(timer)
          resolvePromise(status ?? (signal === null ? 1 : 128))
        })
      })
    } catch (error) {
      result.problems.push(`could not start: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (runtime === "deno") regroupDenoReport(report, output)
    result.problems.push(...errorsOutsideTests(runtime, output))
    if (existsSync(report)) {
      const counts = countCases(parseJUnit(readFileSync(report, "utf8")))
      Object.assign(result, counts)
      if (counts.passed + counts.failed + counts.skipped === 0) result.problems.push("ran no test")
      if (code !== null && code !== 0 && counts.failed === 0) {
        result.problems.push(`runner exited with code ${code} although no test case failed (see its output above)`)
      }
    } else if (code === 0) {
      result.problems.push("ran no test: the runner exited with code 0 and wrote no JUnit report")
    } else if (code !== null) {
      result.problems.push(`runner exited with code ${code} and wrote no JUnit report`)
    }
  }
  // Every problem counts as one failed test, so that nothing that went wrong passes unseen.
  result.failed += result.problems.length
  result.seconds = (Date.now() - started) / 1000
  const verdict = result.failed > 0 ? "FAILED" : result.unavailable !== undefined ? "SKIPPED" : "ok"
  print(
    process.stdout,
    `━━━ ${name} on ${runtime}: ${verdict}: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped` +
      ` (${result.seconds.toFixed(1)}s)${result.problems.map((p) => `\n    ✗ ${p}`).join("")}` +
      `${result.unavailable === undefined ? "" : `\n    - not run: ${result.unavailable}`}\n`,
  )
  for (const [stream, chunk] of held) stream.write(chunk)
  return result
}

/**
 * The (package, runtime) pairs to run.
 *
 * @param {string[]} runtimes runtime names, or `all`
 * @param {string[]} packageDirs package folders; none = every tested workspace package
 * @returns {{ pairs: Array<{ dir: string, runtime: string }>, errors: string[] }}
 */
export const plan = (runtimes, packageDirs) => {
  const dirs = packageDirs.length > 0 ? packageDirs.map((d) => resolve(d)) : testedPackages()
  /** @type {Array<{ dir: string, runtime: string }>} */
  const pairs = []
  /** @type {string[]} */
  const errors = []
  const all = runtimes.length === 0 || runtimes.includes("all")
  for (const r of runtimes) {
    if (r !== "all" && !RUNTIMES.includes(/** @type {"node22"} */ (r))) errors.push(`unknown runtime "${r}"`)
  }
  for (const dir of dirs) {
    if (!existsSync(join(dir, "package.json"))) {
      errors.push(`${dir}: no package.json`)
      continue
    }
    let declared
    try {
      declared = declaredRuntimes(dir)
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error))
      continue
    }
    for (const runtime of RUNTIMES) {
      if (all ? declared.includes(runtime) : runtimes.includes(runtime)) pairs.push({ dir, runtime })
    }
  }
  return { pairs, errors }
}

/**
 * One line per runtime whose suites did not run for want of its binary: `node22 (3 suites): <why>`.
 *
 * @param {SuiteResult[]} results
 * @returns {string[]}
 */
export const unavailableRuntimes = (results) => {
  /** @type {Map<string, { reason: string, suites: number }>} */
  const byRuntime = new Map()
  for (const r of results) {
    if (r.unavailable === undefined) continue
    const seen = byRuntime.get(r.runtime)
    if (seen === undefined) byRuntime.set(r.runtime, { reason: r.unavailable, suites: 1 })
    else seen.suites++
  }
  return [...byRuntime].map(
    ([runtime, { reason, suites }]) => `${runtime} (${suites} suite${suites === 1 ? "" : "s"}): ${reason}`,
  )
}

const main = async () => {
  const argv = process.argv.slice(2)
  /** @type {string[]} */
  const runtimes = []
  /** @type {string[]} */
  const packages = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? ""
    if (a === "--package" || a === "-p") packages.push(argv[++i] ?? "")
    else if (a.startsWith("--package=")) packages.push(a.slice("--package=".length))
    else if (a === "--help" || a === "-h") {
      console.log("usage: run-suite.mjs <node22|node24|deno|bun|workerd|all>... [--package <dir>]...")
      return 0
    } else runtimes.push(a)
  }
  if (runtimes.length === 0) {
    console.error("usage: run-suite.mjs <node22|node24|deno|bun|workerd|all>... [--package <dir>]...")
    return 2
  }
  const { pairs, errors } = plan(runtimes, packages)
  for (const e of errors) console.error(`run-suite: ${e}`)
  if (errors.length > 0) return 2
  const results = []
  for (const { dir, runtime } of pairs) results.push(await runSuite(dir, runtime))
  const total = results.reduce(
    (t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  )
  for (const line of unavailableRuntimes(results)) console.log(`\nnot run: ${line}`)
  console.log(
    `\n${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ""}`,
  )
  return total.failed === 0 && results.length > 0 ? 0 : 1
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
