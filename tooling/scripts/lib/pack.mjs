// Packs the publishable packages (every packages/* whose package.json is not private) into tarballs, as
// `pnpm publish` would upload them: `pnpm pack` rewrites `workspace:*` to the real versions. Used by
// `pack-all.mjs` (`pnpm pack:all`), the consumer and README install checks (which take a folder already packed with
// `--packed <dir>`) and the release script.
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

/**
 * The publishable packages, in dependency order (a package after those it depends on).
 *
 * @returns {{ dir: string, name: string, version: string, manifest: Record<string, any> }[]}
 */
export const publishable = (root = ROOT) => {
  const all = readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, "packages", e.name, "package.json")))
    .map((e) => {
      const dir = join(root, "packages", e.name)
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
      return { dir, name: manifest.name, version: manifest.version, manifest }
    })
    .filter((p) => p.manifest.private !== true)
    .sort((a, b) => a.name.localeCompare(b.name))
  const names = new Set(all.map((p) => p.name))
  /** @type {typeof all} */
  const ordered = []
  const visit = (/** @type {(typeof all)[number]} */ p) => {
    if (ordered.includes(p)) return
    for (const dep of Object.keys(p.manifest.dependencies ?? {})) {
      const found = all.find((q) => q.name === dep)
      if (found && names.has(dep)) visit(found)
    }
    ordered.push(p)
  }
  for (const p of all) visit(p)
  return ordered
}

/**
 * Runs a command to its end with its output collected; rejects with the output when it exits non-zero.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, timeoutMs?: number, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ stdout: string, stderr: string }>}
 */
export const run = (command, args, { cwd, timeoutMs = 600_000, env = process.env }) =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (s) => {
      stdout += s
    })
    child.stderr.setEncoding("utf8").on("data", (s) => {
      stderr += s
    })
    child.on("error", (error) => reject(new Error(`could not run ${command}: ${error.message}`)))
    child.on("close", (code, signal) => {
      if (code === 0) return resolvePromise({ stdout, stderr })
      const why = signal === "SIGTERM" ? `timed out after ${timeoutMs / 1000}s` : `exited with ${code ?? signal}`
      const output = `${stdout}${stderr}`.trim()
      reject(new Error(`\`${[command, ...args].join(" ")}\` (in ${cwd}) ${why}${output ? `:\n${output}` : ""}`))
    })
  })

/** The environment without the `npm_*` settings pnpm passes to the scripts it runs: a plain user's shell. */
export const plainEnv = () => Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))

/**
 * Packs every publishable package into `out` (emptied of older tarballs first); each package's dist/ must be built.
 * Beside the tarballs it writes what pnpm and bun need to take the packages' dependencies on each other from the
 * tarballs too (they would look them up on the registry, where they are not yet): `overrides.json` (package name →
 * `file:` tarball, for the `overrides` of a package.json: bun, npm) and `pnpm-workspace.yaml` (the same overrides,
 * where pnpm reads them).
 *
 * @param {string} out
 * @param {{ root?: string }} [options]
 * @returns {Promise<{ name: string, version: string, file: string }[]>}
 */
export const packAll = async (out, { root = ROOT } = {}) => {
  const packages = publishable(root)
  for (const p of packages) {
    if (!existsSync(join(p.dir, "dist"))) throw new Error(`${p.name}: ${p.dir}/dist is missing: run \`pnpm build\``)
  }
  mkdirSync(out, { recursive: true })
  for (const entry of readdirSync(out)) if (entry.endsWith(".tgz")) rmSync(join(out, entry))
  // One recursive `pnpm pack` for all of them: the same tarballs as a `pnpm pack` in each, one pnpm start-up.
  const filters = packages.flatMap((p) => ["--filter", p.name])
  const { stdout } = await run("pnpm", ["-r", ...filters, "pack", "--json", "--pack-destination", out], { cwd: root })
  /** @type {{ name: string, version: string, filename: string }[]} */
  const infos = [JSON.parse(stdout)].flat()
  const packed = packages.map((p) => {
    const info = infos.find((i) => i.name === p.name)
    if (info === undefined) throw new Error(`pnpm pack wrote no tarball of ${p.name}:\n${stdout}`)
    return { name: info.name, version: info.version, file: info.filename }
  })
  const overrides = Object.fromEntries(packed.map((p) => [p.name, `file:${p.file}`]))
  writeFileSync(join(out, "overrides.json"), `${JSON.stringify(overrides, null, 2)}\n`)
  const yaml = Object.entries(overrides).map(([name, spec]) => `  ${JSON.stringify(name)}: ${JSON.stringify(spec)}`)
  writeFileSync(
    join(out, "pnpm-workspace.yaml"),
    `# Written by \`pnpm pack:all\`: the friendli-stream packages from these tarballs, not the registry.\noverrides:\n${yaml.join("\n")}\n`,
  )
  return packed
}

/**
 * The tarballs of a folder `packAll` wrote, read from its `overrides.json`.
 *
 * @param {string} dir
 * @returns {{ name: string, file: string }[]}
 */
export const packedTarballs = (dir) => {
  const overrides = join(dir, "overrides.json")
  if (!existsSync(overrides)) {
    throw new Error(`${dir} has no overrides.json: not a folder of \`pnpm pack:all --out <dir>\``)
  }
  return Object.entries(JSON.parse(readFileSync(overrides, "utf8"))).map(([name, spec]) => ({
    name,
    file: String(spec).replace(/^file:/, ""),
  }))
}

/**
 * The folder of a check's `--packed <dir>` argument (tarballs `packAll` wrote, used instead of packing again), or
 * undefined without one.
 */
export const packedArg = (argv = process.argv) => {
  const at = argv.indexOf("--packed")
  return at === -1 ? undefined : resolve(argv[at + 1] ?? "")
}
