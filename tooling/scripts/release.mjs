#!/usr/bin/env node
// The release: every publishable package to the next version (they are released together, one version), a
// CHANGELOG.md entry from the git log, the tarballs packed and checked, then published.
//
//   node tooling/scripts/release.mjs <patch|minor|major> [--dry-run]
//   pnpm release -- minor --dry-run            (tooling/consumer's `test` runs `--dry-run patch`)
//
//   1. The next version: the packages' version (they must all have the same one) bumped at the given level.
//   2. The changelog entry: `## <version> (<date>)` and one line per commit since the last `v*` tag (all commits when
//      there is none), the subject's first sentence and the short hash.
//   3. Each package is staged in a temp folder (its files, its package.json at the new version with `workspace:*`
//      rewritten to it, as `pnpm publish` does) and packed with `npm pack` (one `npm pack` for all the folders).
//   4. Each tarball is checked: `publint run <tgz> --strict` (warnings fail too) and `attw <tgz> --profile esm-only`
//      (the packages are ES modules only: CommonJS `require` and `node10` resolution are not checked; every ESM and
//      bundler resolution must find its types) on the module entries of `exports` (those with `types`; core's
//      `./openapi.yaml` and `./compatible.yaml` are data files).
//   5. `npm publish <tgz> --dry-run --access public` for each.
// Steps 4 and 5 run for several packages at once, up to FRIENDLI_CHECK_JOBS (lib/limit.mjs) at a time.
// Without --dry-run, and only when all of that passed: the versions are written to packages/*/package.json, the
// entry to the top of CHANGELOG.md, and each tarball is published, one at a time in dependency order
// (`npm publish <tgz> --access public`; npm must be logged in). With --dry-run no file of the repository changes: everything happens in the temp folder, which is
// removed. The packages' dist/ must be built. Exit code 1, saying which step and package failed.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { JOBS, limit } from "./lib/limit.mjs"
import { plainEnv, publishable, ROOT, run } from "./lib/pack.mjs"

const LEVELS = ["patch", "minor", "major"]
const level = process.argv.slice(2).find((a) => LEVELS.includes(a))
const dryRun = process.argv.includes("--dry-run")
const BIN = join(ROOT, "node_modules/.bin")
/** Seconds since `t0`, for messages. */
const since = (/** @type {number} */ t0) => `${((Date.now() - t0) / 1000).toFixed(1)}s`

/**
 * A version bumped at a level: `bump("0.1.0", "minor")` is `"0.2.0"`.
 *
 * @param {string} version
 * @param {"patch" | "minor" | "major"} by
 */
export const bump = (version, by) => {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version)
  if (match === null) throw new Error(`cannot bump ${JSON.stringify(version)}: not major.minor.patch`)
  const [major, minor, patch] = match.slice(1).map(Number)
  if (by === "major") return `${major + 1}.0.0`
  if (by === "minor") return `${major}.${minor + 1}.0`
  return `${major}.${minor}.${patch + 1}`
}

/**
 * The changelog entry of a version from commit subjects (`<hash> <subject>` lines, newest first).
 *
 * @param {string} version
 * @param {string} date `YYYY-MM-DD`
 * @param {string[]} commits
 */
export const changelogEntry = (version, date, commits) => {
  const lines = commits.map((line) => {
    const [hash = "", ...rest] = line.split(" ")
    const subject = rest.join(" ")
    const first = /^(.*?[.;])(\s|$)/.exec(subject)?.[1] ?? subject
    return `- ${first.replace(/[.;]$/, "")} (${hash})`
  })
  return `## ${version} (${date})\n\n${lines.length > 0 ? lines.join("\n") : "- no changes"}\n`
}

/** Package manifest fields whose `workspace:` ranges are rewritten to the release's version. */
const DEPENDENCY_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"]

/**
 * Waits for every promise, then returns their values, or throws when any rejected: the first failure's error, with
 * how many more failed.
 *
 * @template T
 * @param {Promise<T>[]} promises
 * @returns {Promise<T[]>}
 */
const settled = async (promises) => {
  const results = await Promise.allSettled(promises)
  const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []))
  if (failed.length === 0) return results.map((r) => /** @type {PromiseFulfilledResult<T>} */ (r).value)
  const [first] = failed
  const message = first instanceof Error ? first.message : String(first)
  throw new Error(failed.length === 1 ? message : `${message}\n(and ${failed.length - 1} more failed)`)
}

const main = async () => {
  if (level === undefined) throw new Error(`usage: release.mjs <${LEVELS.join("|")}> [--dry-run]`)
  const packages = publishable()
  const versions = new Set(packages.map((p) => p.version))
  if (versions.size !== 1) throw new Error(`the packages must share one version, found ${[...versions].join(", ")}`)
  const current = [...versions][0]
  const next = bump(current, /** @type {"patch" | "minor" | "major"} */ (level))
  const names = new Set(packages.map((p) => p.name))
  console.log(
    `release: ${packages.length} packages ${current} -> ${next}${dryRun ? " (dry run: no file changes)" : ""}`,
  )

  const tags = (await run("git", ["tag", "--list", "v*", "--sort=-v:refname"], { cwd: ROOT })).stdout.trim()
  const lastTag = tags.split("\n")[0] ?? ""
  const log = await run("git", ["log", "--format=%h %s", ...(lastTag ? [`${lastTag}..HEAD`] : [])], { cwd: ROOT })
  const commits = log.stdout.split("\n").filter((l) => l.trim() !== "")
  const entry = changelogEntry(next, new Date().toISOString().slice(0, 10), commits)
  console.log(`release: changelog entry: ${commits.length} commits since ${lastTag || "the first commit"}`)

  const temp = mkdtempSync(join(tmpdir(), "friendli-release-"))
  try {
    const queue = limit(JOBS)
    let t0 = Date.now()
    for (const p of packages) {
      if (!existsSync(join(p.dir, "dist"))) throw new Error(`${p.name}: dist/ is missing: run \`pnpm build\``)
    }
    /** The staged folders, in dependency order. */
    const staged = packages.map((p) => {
      const stage = join(temp, "stage", p.name)
      cpSync(p.dir, stage, {
        recursive: true,
        filter: (source) => !/[\\/](node_modules|reports|\.turbo)([\\/]|$)/.test(source.slice(p.dir.length)),
      })
      const manifest = { ...p.manifest, version: next }
      for (const field of DEPENDENCY_FIELDS) {
        const deps = manifest[field]
        if (deps === undefined) continue
        manifest[field] = Object.fromEntries(
          Object.entries(deps).map(([name, range]) => [
            name,
            String(range).startsWith("workspace:") ? (names.has(name) ? next : undefined) : range,
          ]),
        )
      }
      // Dev dependencies are not published: pnpm keeps them in the packed manifest, npm ignores them; drop the
      // workspace-only ones so the manifest names nothing that is not on the registry.
      if (manifest.devDependencies) {
        manifest.devDependencies = Object.fromEntries(
          Object.entries(manifest.devDependencies).filter(([, range]) => range !== undefined),
        )
      }
      writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
      return { name: p.name, stage, manifest }
    })
    // One `npm pack` for every folder: the same tarballs as one `npm pack` in each, one npm start-up.
    const packed = await run("npm", ["pack", "--json", "--pack-destination", temp, ...staged.map((s) => s.stage)], {
      cwd: temp,
      env: plainEnv(),
    })
    /** @type {{ name: string, filename: string }[]} */
    const infos = JSON.parse(packed.stdout)
    /** The tarballs in dependency order. */
    const tarballs = staged.map(({ name, manifest }) => {
      const info = infos.find((i) => i.name === name)
      if (info === undefined) throw new Error(`npm pack wrote no tarball of ${name}:\n${packed.stdout}`)
      // The module entries (those with types); files such as core's `./openapi.yaml` are not modules.
      const entrypoints = Object.entries(manifest.exports ?? {})
        .filter(([, target]) => typeof target === "object" && target !== null && "types" in target)
        .map(([subpath]) => subpath)
      return { name, tarball: join(temp, info.filename), entrypoints }
    })
    console.log(`release: packed ${tarballs.length} tarballs at ${next} (${since(t0)})`)

    t0 = Date.now()
    await settled(
      tarballs.map(({ name, tarball, entrypoints }) =>
        queue(async () => {
          await run(join(BIN, "publint"), ["run", tarball, "--strict"], { cwd: temp }).catch((error) => {
            throw new Error(`publint ${name}: ${error.message}`)
          })
          const attw = [tarball, "--profile", "esm-only", "--no-emoji", "--no-color", "--entrypoints", ...entrypoints]
          await run(join(BIN, "attw"), attw, { cwd: temp }).catch((error) => {
            throw new Error(`attw ${name}: ${error.message}`)
          })
        }),
      ),
    )
    console.log(`release: publint --strict and attw --profile esm-only pass for every tarball (${since(t0)})`)

    t0 = Date.now()
    await settled(
      tarballs.map(({ name, tarball }) =>
        queue(() =>
          run("npm", ["publish", tarball, "--dry-run", "--access", "public"], { cwd: temp, env: plainEnv() }).catch(
            (error) => {
              throw new Error(`npm publish --dry-run ${name}: ${error.message}`)
            },
          ),
        ),
      ),
    )
    console.log(`release: npm publish --dry-run passes for every tarball (${since(t0)})`)
    if (dryRun) {
      console.log(
        `release: dry run done; the changelog entry would start:\n${entry.split("\n").slice(0, 6).join("\n")}`,
      )
      return
    }

    for (const p of packages) {
      const file = join(p.dir, "package.json")
      const text = readFileSync(file, "utf8")
      writeFileSync(file, text.replace(/^(\s*"version":\s*")[^"]*(")/m, `$1${next}$2`))
    }
    const changelog = join(ROOT, "CHANGELOG.md")
    const old = existsSync(changelog) ? readFileSync(changelog, "utf8").replace(/^# Changelog\n+/, "") : ""
    writeFileSync(changelog, `# Changelog\n\n${entry}\n${old}`)
    console.log(`release: wrote ${next} to ${packages.length} package.json files and CHANGELOG.md`)
    for (const { name, tarball } of tarballs) {
      await run("npm", ["publish", tarball, "--access", "public"], { cwd: temp, env: plainEnv() })
      console.log(`release: published ${name}@${next}`)
    }
    console.log(`release: done; commit, then tag: git tag v${next}`)
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`release: FAILED: ${error instanceof Error ? error.message : error}`)
    process.exitCode = 1
  })
}
