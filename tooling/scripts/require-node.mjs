#!/usr/bin/env node
// `pnpm start`, `pnpm test` and `pnpm bench` run this first: on a Node older than 22.19 it prints one line that says
// what to do, and exits 1, instead of letting the real script fail with a stack trace. Under pnpm, scripts run on
// the project's own Node 24 (the root's node-linux-<arch> optional dependency, linked as node_modules/.bin/node),
// which exists on Linux x64 and arm64 only; elsewhere they run on the Node on PATH. Plain syntax and nothing but
// node: builtins, so that it parses and runs on any Node the host may have (Node 20 included).
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const MINIMUM = [22, 19]
const found = process.versions.node
const parts = found.split(".").map(Number)
const major = parts[0] || 0
const minor = parts[1] || 0

if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
  const arch = process.arch
  const packaged = process.platform === "linux" && (arch === "x64" || arch === "arm64")
  const own = join(root, "node_modules", `node-linux-${arch}`, "bin", "node")
  let todo
  if (!packaged) {
    todo =
      `the project brings its own Node only on Linux x64 and arm64; on ${process.platform}-${arch}, ` +
      "put Node 22.19 or later on PATH (e.g. with nvm, fnm or Volta) and run the command again"
  } else if (!existsSync(own)) {
    todo = `run pnpm install, which brings the project's Node 24 (node-linux-${arch}), then the command again`
  } else {
    todo = "run it through pnpm (pnpm start, pnpm test, pnpm bench), which runs scripts on the project's Node 24"
  }
  console.error(`friendli-stream needs Node >= ${MINIMUM.join(".")} (found v${found}): ${todo}.`)
  process.exit(1)
}
