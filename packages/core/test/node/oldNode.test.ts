import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, it } from "@friendli-stream/test-harness"
import { isSupportedNode } from "../../src/RequireNode.ts"

/** A Node older than 22.19 on this machine (FRIENDLI_OLD_NODE, /usr/bin/node, /usr/local/bin/node), if any. */
const oldNode = (): { path: string; version: string } | undefined => {
  const candidates = [process.env.FRIENDLI_OLD_NODE, "/usr/bin/node", "/usr/local/bin/node"]
  for (const path of candidates) {
    if (path === undefined || path === "" || !existsSync(path)) continue
    const version = spawnSync(path, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout?.trim() ?? ""
    if (/^\d+\.\d+\.\d+$/.test(version) && !isSupportedNode(version)) return { path, version }
  }
  return undefined
}

const found = oldNode()
const entry = fileURLToPath(new URL("../../dist/index.js", import.meta.url))
const skip =
  found === undefined
    ? "no Node older than 22.19 here (FRIENDLI_OLD_NODE, /usr/bin/node, /usr/local/bin/node)"
    : !existsSync(entry)
      ? "packages/core/dist is not built"
      : undefined

describe("on a Node older than 22.19", () => {
  it.skipIf(skip)("importing the built package fails with one line naming the Node it needs", () => {
    const old = found as { path: string; version: string }
    const r = spawnSync(old.path, ["--input-type=module", "-e", `import ${JSON.stringify(entry)}`], {
      encoding: "utf8",
    })
    assert.notEqual(r.status, 0)
    const line = `@friendli-stream/core needs Node >= 22.19 (this is Node ${old.version})`
    assert.ok(r.stderr.includes(line), `stderr should hold ${JSON.stringify(line)}:\n${r.stderr}`)
    assert.ok(!/\n\s+at /.test(r.stderr), `no stack frames expected:\n${r.stderr}`)
  })
})
