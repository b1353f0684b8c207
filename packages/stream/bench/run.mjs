#!/usr/bin/env node
// `pnpm bench`: throughput, delivery delay and memory, each in its own process on the project's Node 24 (the root's
// node-linux-<arch> package), because the openai SDK (v7) and the AI SDK (provider-utils v5) we compare with need
// Node >= 22, and the README's numbers are Node 24's. Node 24 runs the TypeScript sources as they are. `--quick` runs
// small workloads (a smoke test, not a measurement).
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { nodeBinary } from "@friendli-stream/test-harness/runtimes"

const here = dirname(fileURLToPath(import.meta.url))
const node24 = nodeBinary("node24")
const node = "path" in node24 ? node24.path : process.execPath
if (!("path" in node24)) console.warn(`${node24.missing}; using Node ${process.version} (${process.execPath})`)
const quick = process.argv.includes("--quick")

const run = (file, args) => {
  const r = spawnSync(node, ["--expose-gc", join(here, file), ...args], { stdio: "inherit", cwd: join(here, "..") })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

if (quick) console.log("--quick: small workloads, a smoke test; the numbers mean nothing")
run("throughput.ts", quick ? ["--scale", "0.05", "--rounds", "2"] : [])
run("latency.ts", quick ? ["--events", "100"] : [])
run("memory.ts", quick ? ["--mib", "64"] : [])
