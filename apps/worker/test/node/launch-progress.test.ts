// The launcher's build (apps/sample-service/bin/launch.ts), as the first `pnpm start` shows it: one line a package
// it builds, nothing when turbo restores everything from its cache, the whole output when the build fails. A fake
// `turbo` on PATH prints what turbo prints, so the test needs no real build.
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join, resolve } from "node:path"
import { afterAll, describe, it } from "@friendli-stream/test-harness"

const root = resolve(import.meta.dirname, "../../../..")
const launcher = resolve(root, "apps/sample-service/bin/launch.ts")
const dirs: Array<string> = []

/** Runs `launch.ts --build-only @x/app` with a `turbo` that prints `lines` and exits with `code`. */
const buildWith = (lines: ReadonlyArray<string>, code: number) => {
  const dir = mkdtempSync(join(tmpdir(), "fake-turbo-"))
  dirs.push(dir)
  const turbo = join(dir, "turbo")
  writeFileSync(
    turbo,
    `#!${process.execPath}\nprocess.stdout.write(${JSON.stringify(lines.join("\n"))} + "\\n")\nprocess.exit(${code})\n`,
  )
  chmodSync(turbo, 0o755)
  return spawnSync(process.execPath, [launcher, "--build-only", "@x/app"], {
    encoding: "utf8",
    env: { ...process.env, PATH: `${dir}${delimiter}${process.env.PATH ?? ""}` },
  })
}

const HEADER = ["", "   • turbo 2.11.11", "   • Running build in 3 packages", ""]

describe.skipIf(process.platform === "win32" ? "a fake turbo needs a shebang script" : undefined)(
  "the launcher's build",
  () => {
    afterAll(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    })

    it("says which package it is building, one line each, on stderr only", () => {
      const result = buildWith(
        [
          ...HEADER,
          "@x/core:build: cache hit, replaying logs 1",
          "@x/lib:build: cache miss, executing 2",
          "@x/lib:build: $ tsc -b",
          "@x/app:build: cache bypass, force executing 3",
          "@x/app:build: $ tsc -b",
          "",
          " Tasks:    3 successful, 3 total",
        ],
        0,
      )
      assert.equal(result.status, 0, result.stderr)
      assert.equal(result.stdout, "")
      const lines = result.stderr.trimEnd().split("\n")
      assert.deepEqual(lines.slice(0, 3), [
        "Building @x/app and the packages it uses:",
        "  building @x/lib",
        "  building @x/app",
      ])
      assert.match(lines[3] ?? "", /^Built 2 packages in \d+ s\.$/)
    })

    it("prints nothing when every package comes from turbo's cache", () => {
      const result = buildWith([...HEADER, "@x/app:build: cache hit, replaying logs 1"], 0)
      assert.equal(result.status, 0, result.stderr)
      assert.equal(result.stdout + result.stderr, "")
    })

    it("shows the build's output and ends with its code when it fails", () => {
      const result = buildWith([...HEADER, "@x/app:build: cache miss, executing 1", "src/a.ts(1,1): error TS1005"], 2)
      assert.equal(result.status, 2)
      assert.match(result.stderr, /src\/a\.ts\(1,1\): error TS1005/)
    })
  },
)
