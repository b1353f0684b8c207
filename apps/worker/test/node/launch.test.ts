// The launcher of the sample apps' start and dev scripts (apps/sample-service/bin/launch.ts).
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { readFileSync, rmSync } from "node:fs"
import { resolve } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import { noiseFilter } from "../../../../tooling/scripts/lib/noise.ts"

const root = resolve(import.meta.dirname, "../../../..")
const launcher = resolve(root, "apps/sample-service/bin/launch.ts")

describe("the sample apps' launcher", () => {
  it("is what every sample's start and dev scripts run, with the sample's own package name", () => {
    for (const app of ["deno-app", "bun-app", "worker"]) {
      const pkg = JSON.parse(readFileSync(resolve(root, "apps", app, "package.json"), "utf8")) as {
        name: string
        scripts: Record<string, string>
      }
      for (const script of ["start", "dev"]) {
        assert.match(
          pkg.scripts[script] ?? "",
          new RegExp(`^exec node \\.\\./sample-service/bin/launch\\.ts ${pkg.name.replace("/", "\\/")} `),
          `${app} ${script}`,
        )
      }
    }
  })

  it("builds the package before it runs the command: a missing dist/ file is there when the command starts", () => {
    // a declaration map of the demo's build, which nothing reads while it runs (node-cli's own suite, which may run
    // at the same time, runs dist/main.js: removing that one broke it)
    const built = resolve(root, "apps/node-cli/dist/main.d.ts.map")
    rmSync(built, { force: true })
    const check = `require("node:fs").statSync(${JSON.stringify(built)}); console.log("found")`
    const result = spawnSync(process.execPath, [launcher, "@friendli-stream/node-cli", process.execPath, "-e", check], {
      cwd: root,
      encoding: "utf8",
    })
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`)
    assert.match(result.stdout, /^found\n$/, "the build printed something, or the command did not run")
  })

  it("leaves out the lines that only say a client went away, with their stack lines", () => {
    let out = ""
    const filter = noiseFilter((t) => {
      out += t
    })
    filter.push(
      "[wrangler:info] Ready on http://localhost:8787\nworkerd/server/server.c++:1: error: kj/async-io-unix.c++:2: disc",
    )
    filter.push("onnected: ::recv(fd): Connection reset by peer\n  stack: 0x1 0x2\n    at foo (bar.js:1:1)\n")
    filter.push("[wrangler:info] POST /v1/stream 200 OK (214ms)\nlast line")
    filter.end()
    assert.equal(
      out,
      "[wrangler:info] Ready on http://localhost:8787\n[wrangler:info] POST /v1/stream 200 OK (214ms)\nlast line\n",
    )
  })
})
