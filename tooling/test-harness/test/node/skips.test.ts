// it.skipIf / describe.skipIf and per-test timeouts as each runner reports them: test/fixtures/skips.fixture.ts run
// in a child vitest, deno test and bun test, read from the JUnit report that `pnpm test`'s summary reads too.
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import { parseJUnit, type TestCase } from "../../src/junit.ts"

const HARNESS = join(import.meta.dirname, "../..")
const ROOT = join(HARNESS, "../..")
const FIXTURE = "test/fixtures/skips.fixture.ts"

/** How each runner runs the fixture, writing its JUnit report to `report`. */
const commands = (report: string) =>
  ({
    vitest: [
      process.execPath,
      [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config=test/fixtures/vitest.config.mjs"].concat(
        `--outputFile.junit=${report}`,
      ),
    ],
    deno: [
      join(ROOT, "node_modules/.bin/deno"),
      ["test", "-A", "--no-check", `--config=${join(ROOT, "deno.json")}`, `--junit-path=${report}`, FIXTURE],
    ],
    bun: [
      join(ROOT, "node_modules/.bin/bun"),
      ["test", "--reporter=junit", `--reporter-outfile=${report}`, `./${FIXTURE}`],
    ],
  }) as const

/** The fixture's JUnit report under one runner; the run fails (one timed-out test), which is expected. */
const run = async (runner: "vitest" | "deno" | "bun"): Promise<Array<TestCase>> => {
  const report = join(mkdtempSync(join(tmpdir(), "harness-skips-")), "report.xml")
  const [command, args] = commands(report)[runner]
  await new Promise<void>((resolve) => execFile(command, args, { cwd: HARNESS }, () => resolve()))
  return parseJUnit(readFileSync(report, "utf8"))
}

const find = (cases: Array<TestCase>, name: string): TestCase => {
  const found = cases.find((c) => c.name.includes(name))
  assert.ok(found, `no test case named "${name}" in ${JSON.stringify(cases.map((c) => c.name))}`)
  return found
}

for (const runner of ["vitest", "deno", "bun"] as const) {
  describe(`${runner} with the harness`, () => {
    it("reports a skipped group's and a skipped test's tests as skipped, with the reason in the name, never run", async () => {
      const cases = await run(runner)
      const group = find(cases, "is reported as skipped, never run")
      assert.equal(group.status, "skipped")
      assert.match(group.name, /\[skipped: a group skipped on purpose\]$/)
      const test = find(cases, "a skipped test")
      assert.equal(test.status, "skipped")
      assert.match(test.name, /\[skipped: a test skipped on purpose\]$/)
      assert.equal(find(cases, "a test whose skip reason is undefined").status, "passed")
      // A hook or body of the skipped ones would have thrown: the one failure is the timeout below.
      assert.deepEqual(
        cases.filter((c) => c.status === "failed").map((c) => c.name.replace(/^.* > /, "")),
        ["outlives its own timeout"],
      )
    }, 60_000)
  })
}
