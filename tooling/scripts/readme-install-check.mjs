#!/usr/bin/env node
// The README install check: do the install sections of the READMEs work as written, from a fresh folder?
//
//   node tooling/scripts/readme-install-check.mjs [--managers npm,pnpm,bun] [--packed <dir>] [--keep]
//   (tooling/consumer's `consumer:check` runs it through consumer-check-all.mjs, with --packed)
//
// The packages' dist/ must be built (`pnpm build`; the turbo task of tooling/consumer builds them first).
//   1. Packs every publishable package as `pnpm pack:all` does, into `<temp>/friendli-stream/dist-tarballs`, and
//      sets FRIENDLI_STREAM to `<temp>/friendli-stream`: the clone the READMEs talk about. With `--packed <dir>` (a
//      folder `pnpm pack:all --out <dir>` wrote) it packs nothing: `<temp>/friendli-stream/dist-tarballs` links there.
//   2. Reads the `## Install` section of each README below: its ```sh install=npm, install=pnpm and install=bun
//      blocks (all three must be there). Each distinct block runs once, `sh -e`, in a fresh empty folder, with a
//      plain user's environment (no npm_* settings of pnpm's) and the repository's node_modules/.bin (pnpm, bun,
//      deno) on PATH.
//   3. Copies the README's program (tooling/consumer/readme/<package>.ts: its example, against the mock) into that
//      folder and runs it on the README's runtime (node: the Node running this script; bun; deno): it must exit 0
//      and print the text it streamed.
//   4. With a Node older than 22.19 on the machine (FRIENDLI_OLD_NODE, /usr/bin/node, /usr/local/bin/node),
//      importing each installed package on it (the npm install of packages/node/README.md) must fail with the one
//      line `@friendli-stream/X needs Node >= 22.19 (this is Node V)`; without one, that step says it is skipped and why.
// The installs, programs and imports run at once, up to FRIENDLI_CHECK_JOBS (lib/limit.mjs) at a time; a program
// starts when its folder is installed. Exit code 1, saying which README, manager and step failed. The temp dir is
// removed unless --keep is given.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { JOBS, limit } from "./lib/limit.mjs"
import { packAll, packedArg, packedTarballs, plainEnv, ROOT, run } from "./lib/pack.mjs"

/** Each README with an install section, the program that checks it and the runtime that runs the program. */
const READMES = [
  { readme: "packages/node/README.md", program: "node.ts", runtime: "node" },
  { readme: "packages/deno/README.md", program: "deno.ts", runtime: "deno" },
  { readme: "packages/bun/README.md", program: "bun.ts", runtime: "bun" },
  { readme: "packages/cloudflare/README.md", program: "cloudflare.ts", runtime: "node" },
  { readme: "packages/ai-sdk/README.md", program: "ai-sdk.ts", runtime: "node" },
  { readme: "packages/effect-ai/README.md", program: "effect-ai.ts", runtime: "node" },
  { readme: "packages/testing/README.md", program: "testing.ts", runtime: "node" },
]
const arg = (name) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? undefined : process.argv[at + 1]
}
const MANAGERS = (arg("--managers") ?? "npm,pnpm,bun").split(",")
const keep = process.argv.includes("--keep")
const packedDir = packedArg()
const BIN = join(ROOT, "node_modules/.bin")
const started = Date.now()

/**
 * The ```sh install=<manager> blocks of a README's `## Install` section, by manager.
 *
 * @param {string} text
 * @returns {Map<string, string>}
 */
const installBlocks = (text) => {
  const start = text.search(/^## Install\s*$/m)
  if (start === -1) return new Map()
  const rest = text.slice(start + 1)
  const end = rest.search(/^## /m)
  const section = end === -1 ? rest : rest.slice(0, end)
  return new Map([...section.matchAll(/^```sh install=(\w+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1], m[2]]))
}

/** A Node older than 22.19 on this machine, if any. */
const oldNode = async () => {
  for (const path of [process.env.FRIENDLI_OLD_NODE, "/usr/bin/node", "/usr/local/bin/node"]) {
    if (!path || !existsSync(path)) continue
    const { stdout } = await run(path, ["-p", "process.versions.node"], { cwd: ROOT }).catch(() => ({ stdout: "" }))
    const [major = 0, minor = 0] = stdout.trim().split(".").map(Number)
    if (major > 0 && (major < 22 || (major === 22 && minor < 19))) return { path, version: stdout.trim() }
  }
  return undefined
}

const temp = mkdtempSync(join(tmpdir(), "friendli-readme-install-"))
const clone = join(temp, "friendli-stream")
const env = { ...plainEnv(), FRIENDLI_STREAM: clone, PATH: `${BIN}${delimiter}${process.env.PATH ?? ""}` }
/** @type {string[]} */
const failures = []
let passed = 0
/** Every install, program and import of the check, at most JOBS at once. */
const queue = limit(JOBS)
try {
  /** @type {{ name: string }[]} */
  let packed
  if (packedDir === undefined) {
    packed = await packAll(join(clone, "dist-tarballs"))
    console.log(`readme-install: packed ${packed.length} packages into $FRIENDLI_STREAM/dist-tarballs (${clone})`)
  } else {
    packed = packedTarballs(packedDir)
    mkdirSync(clone)
    symlinkSync(packedDir, join(clone, "dist-tarballs"))
    console.log(`readme-install: $FRIENDLI_STREAM/dist-tarballs (${clone}) is ${packedDir}: ${packed.length} packages`)
  }

  /** Folders installed or being installed, by manager and block text: identical commands run once. */
  /** @type {Map<string, Promise<string>>} */
  const installed = new Map()
  const install = (/** @type {string} */ manager, /** @type {string} */ block) => {
    const key = `${manager}\n${block}`
    let dir = installed.get(key)
    if (dir === undefined) {
      const folder = join(temp, `${manager}-${installed.size}`)
      mkdirSync(folder)
      dir = queue(async () => {
        const t0 = Date.now()
        await run("sh", ["-e", "-c", block], { cwd: folder, env, timeoutMs: 600_000 })
        console.log(`readme-install: ${manager} install in ${folder} (${((Date.now() - t0) / 1000).toFixed(1)}s)`)
        return folder
      })
      installed.set(key, dir)
    }
    return dir
  }

  /** One README's program after its install with one manager. */
  const check = async (
    /** @type {(typeof READMES)[number]} */ { readme, program, runtime },
    /** @type {string} */ manager,
    /** @type {string | undefined} */ block,
  ) => {
    const label = `${readme} (${manager})`
    if (block === undefined) {
      failures.push(`${label}: no \`\`\`sh install=${manager} block in its ## Install section`)
      return
    }
    try {
      const folder = await install(manager, block)
      copyFileSync(join(ROOT, "tooling/consumer/readme", program), join(folder, program))
      const [command, args] =
        runtime === "deno"
          ? [join(BIN, "deno"), ["run", "--allow-all", program]]
          : runtime === "bun"
            ? [join(BIN, "bun"), [program]]
            : [process.execPath, [program]]
      const { stdout } = await queue(() => run(command, args, { cwd: folder, env, timeoutMs: 300_000 }))
      if (stdout.trim() === "") throw new Error(`${program} exited 0 but streamed no text`)
      console.log(`readme-install: ${label}: ${runtime} ${program} streamed ${JSON.stringify(stdout.trim())}`)
      passed++
    } catch (error) {
      failures.push(`${label}: ${error instanceof Error ? error.message : error}`)
    }
  }

  /** Importing each installed package on a Node older than 22.19 fails with its one line. */
  const oldNodeCheck = async () => {
    const old = await oldNode()
    if (old === undefined) {
      console.log(
        "readme-install: Node < 22.19 import check skipped: no old Node here (FRIENDLI_OLD_NODE, /usr/bin/node)",
      )
      return
    }
    if (!MANAGERS.includes("npm")) {
      console.log("readme-install: Node < 22.19 import check skipped: it reads the npm install (--managers has no npm)")
      return
    }
    const block = installBlocks(readFileSync(join(ROOT, READMES[0].readme), "utf8")).get("npm") ?? ""
    const folder = await install("npm", block).catch((error) => {
      throw new Error(`Node < 22.19 import check: ${error instanceof Error ? error.message : error}`)
    })
    let ok = 0
    await Promise.all(
      packed.map(async ({ name }) => {
        const line = `${name} needs Node >= 22.19 (this is Node ${old.version})`
        const args = ["--input-type=module", "-e", `import ${JSON.stringify(name)}`]
        const result = await queue(() => run(old.path, args, { cwd: folder, env })).then(
          () => ({ ok: false, output: "the import succeeded" }),
          (error) => ({ ok: String(error.message).includes(line), output: String(error.message) }),
        )
        if (result.ok) ok++
        else
          failures.push(
            `${name} on Node ${old.version}: expected the line ${JSON.stringify(line)}, got:\n${result.output}`,
          )
      }),
    )
    passed += ok
    const outcome =
      ok === packed.length ? "fails with its one line" : `: ${packed.length - ok} did not fail with their one line`
    console.log(
      `readme-install: importing each of ${packed.length} packages on Node ${old.version} (${old.path}) ${outcome}`,
    )
  }

  // The npm installs take longest: they start first.
  const byManager = [...MANAGERS].sort((a, b) => Number(b === "npm") - Number(a === "npm"))
  for (const manager of byManager) {
    for (const { readme } of READMES) {
      const block = installBlocks(readFileSync(join(ROOT, readme), "utf8")).get(manager)
      if (block !== undefined) install(manager, block).catch(() => {})
    }
  }
  const checks = READMES.flatMap((entry) => {
    const blocks = installBlocks(readFileSync(join(ROOT, entry.readme), "utf8"))
    return MANAGERS.map((manager) => check(entry, manager, blocks.get(manager)))
  })
  for (const result of await Promise.allSettled([...checks, oldNodeCheck()])) {
    if (result.status === "rejected") failures.push(String(result.reason?.message ?? result.reason))
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error))
} finally {
  if (keep) console.log(`readme-install: kept ${temp}`)
  else rmSync(temp, { recursive: true, force: true })
}
const seconds = ((Date.now() - started) / 1000).toFixed(1)
if (failures.length > 0) {
  console.error(`readme-install: FAILED (${failures.length}):\n- ${failures.join("\n- ")}`)
  process.exitCode = 1
} else {
  console.log(`readme-install: ok, ${passed} checks (${seconds}s)`)
}
