#!/usr/bin/env node
// The consumer project check: can a project outside this repository install the packages as published and use
// them, with the README's examples, on TypeScript and on Node?
//
//   node tooling/scripts/consumer-check.mjs [--packed <dir>] [--keep]
//   (tooling/consumer's `consumer:check` runs it through consumer-check-all.mjs, with --packed)
//
// It builds nothing: the packages' dist/ must be built (`pnpm build`; `pnpm test` builds first).
//   1. Packs every publishable package as `pnpm pack:all` does, into a temp dir under os.tmpdir() (pack rewrites
//      `workspace:*` to the real versions, as `pnpm publish` does); the project uses those of
//      @friendli-stream/core, stream, client, node, testing and resumable. With `--packed <dir>` (a folder
//      `pnpm pack:all --out <dir>` wrote) it packs nothing and takes the tarballs from there.
//   2. A consumer project next to them: a package.json that depends on the tarballs (file:), `effect@latest`,
//      typescript 5.9.3 and @types/node 22, installed with the host's npm (`npm install --no-audit --no-fund`,
//      from the npm registry). Exactly one `effect` may be installed (effect is a peer dependency of every package:
//      two copies would mean two sets of tags and services); its version is printed.
//   3. The programs of tooling/consumer/ (promise.ts: the root README's Promise example; effect.ts: the Effect example
//      of packages/node/README.md; resumable.ts: a resumable stream, dropped and resumed; all stream from the mock of
//      @friendli-stream/testing served in-process) and its
//      tsconfig.json (strict, NodeNext) are copied in, type-checked with the consumer's tsc and, at the same time,
//      each run with the Node running this script (Node 24 under pnpm; it strips the types itself). Each must exit 0
//      and print the text it streamed, which must not be empty.
// Exit code 1, with a message saying which step failed, on any failure. The temp dir is removed at the end, unless
// --keep is given (its path is printed).
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { packAll, packedArg, packedTarballs, run as runCommand } from "./lib/pack.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const PACKAGES = ["core", "stream", "client", "node", "testing", "resumable"]
const PROGRAMS = ["promise.ts", "effect.ts", "resumable.ts"]
const SOURCES = join(ROOT, "tooling/consumer")
const keep = process.argv.includes("--keep")
const packedDir = packedArg()
const started = Date.now()

class CheckFailure extends Error {}

/**
 * Runs a command to its end with its output collected (lib/pack.mjs's `run`); fails the check when it cannot start,
 * times out or exits non-zero, with its output in the message.
 *
 * @param {string} step what the command is for, for messages
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, timeoutMs: number, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ stdout: string, stderr: string }>}
 */
const run = (step, command, args, options) =>
  runCommand(command, args, options).catch((error) => {
    throw new CheckFailure(`${step}: ${error instanceof Error ? error.message : error}`)
  })

/** The directories of every installed package named `name` in a node_modules tree, nested ones included. */
const installedCopies = (/** @type {string} */ nodeModules, /** @type {string} */ name) => {
  /** @type {string[]} */
  const found = []
  const walk = (/** @type {string} */ dir) => {
    if (!existsSync(dir)) return
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue
      const dirs = entry.name.startsWith("@")
        ? readdirSync(join(dir, entry.name), { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => ({ name: `${entry.name}/${e.name}`, path: join(dir, entry.name, e.name) }))
        : [{ name: entry.name, path: join(dir, entry.name) }]
      for (const pkg of dirs) {
        if (pkg.name === name && existsSync(join(pkg.path, "package.json"))) found.push(pkg.path)
        walk(join(pkg.path, "node_modules"))
      }
    }
  }
  walk(nodeModules)
  return found
}

const temp = mkdtempSync(join(tmpdir(), "friendli-consumer-"))
const packs = join(temp, "packs")
const project = join(temp, "project")
try {
  for (const file of [...PROGRAMS, "tsconfig.json"]) {
    if (!existsSync(join(SOURCES, file))) throw new CheckFailure(`tooling/consumer/${file} is missing`)
  }
  for (const name of PACKAGES) {
    const dist = join(ROOT, "packages", name, "dist")
    if (!existsSync(dist)) throw new CheckFailure(`packages/${name}/dist is missing: run \`pnpm build\` first`)
  }

  // 1. The tarballs, as `pnpm publish` would upload them.
  if (packedDir === undefined) {
    await packAll(packs)
    console.log(`consumer-check: packed every publishable package into ${packs}`)
  }
  const tarballs = packedTarballs(packedDir ?? packs)
  /** @type {Record<string, string>} */
  const dependencies = {}
  for (const name of PACKAGES) {
    const { name: packageName } = JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8"))
    const tarball = tarballs.find((t) => t.name === packageName)
    if (tarball === undefined) throw new CheckFailure(`${packedDir ?? packs} has no tarball of ${packageName}`)
    dependencies[packageName] = `file:${relative(project, tarball.file)}`
  }
  console.log(`consumer-check: the project depends on ${Object.keys(dependencies).sort().join(", ")}`)

  // 2. The consumer project, installed from the tarballs and the npm registry.
  mkdirSync(project)
  const manifest = {
    name: "friendli-stream-consumer-check",
    private: true,
    type: "module",
    dependencies: { ...Object.fromEntries(Object.entries(dependencies).sort()), effect: "latest" },
    devDependencies: { "@types/node": "22", typescript: "5.9.3" },
  }
  writeFileSync(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  for (const file of [...PROGRAMS, "tsconfig.json"]) copyFileSync(join(SOURCES, file), join(project, file))
  // npm must not read the settings pnpm passes to the scripts it runs (npm_config_*): the consumer is a plain project.
  const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))
  console.log("consumer-check: npm install --no-audit --no-fund (host npm)")
  const t0 = Date.now()
  await run("npm install", "npm", ["install", "--no-audit", "--no-fund"], {
    cwd: project,
    timeoutMs: 600_000,
    env: npmEnv,
  })
  console.log(`consumer-check: installed in ${((Date.now() - t0) / 1000).toFixed(1)}s`)
  const effects = installedCopies(join(project, "node_modules"), "effect")
  if (effects.length !== 1) {
    const where = effects.map((dir) => `  ${relative(project, dir)}/package.json`).join("\n")
    throw new CheckFailure(`the consumer must resolve exactly one effect, found ${effects.length}:\n${where}`)
  }
  const effectVersion = JSON.parse(readFileSync(join(effects[0] ?? "", "package.json"), "utf8")).version
  console.log(`consumer-check: one effect installed: effect@${effectVersion} (${relative(project, effects[0] ?? "")})`)

  // 3. Type-check, and run each program, at the same time.
  const typeCheck = async () => {
    const tsc = join(project, "node_modules/typescript/bin/tsc")
    await run("tsc", process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project, timeoutMs: 600_000 })
    console.log(`consumer-check: tsc --noEmit (strict, NodeNext) passed for ${PROGRAMS.join(", ")}`)
  }
  const runProgram = async (/** @type {string} */ program) => {
    const { stdout, stderr } = await run(program, process.execPath, [program], { cwd: project, timeoutMs: 30_000 })
    if (stdout.trim() === "") {
      throw new CheckFailure(`${program} exited 0 but streamed no text${stderr.trim() ? `:\n${stderr.trim()}` : ""}`)
    }
    console.log(
      `consumer-check: node ${program} (Node ${process.versions.node}) streamed: ${JSON.stringify(stdout.trim())}`,
    )
    if (stderr.trim() !== "") console.log(`consumer-check: ${program} also wrote to stderr:\n${stderr.trimEnd()}`)
  }
  const results = await Promise.allSettled([typeCheck(), ...PROGRAMS.map(runProgram)])
  const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []))
  if (failed.length > 0) {
    throw new CheckFailure(failed.map((e) => (e instanceof Error ? e.message : String(e))).join("\n"))
  }
  console.log(`consumer-check: ok (${((Date.now() - started) / 1000).toFixed(1)}s)`)
} catch (error) {
  console.error(`consumer-check: FAILED: ${error instanceof CheckFailure ? error.message : error}`)
  process.exitCode = 1
} finally {
  if (keep) console.log(`consumer-check: kept ${temp}`)
  else rmSync(temp, { recursive: true, force: true })
}
