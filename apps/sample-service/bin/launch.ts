/**
 * How a sample app's `start` and `dev` scripts run it, on a fresh clone as on a used one:
 *
 *     node ../sample-service/bin/launch.ts @friendli-stream/deno-app deno run --allow-net main.ts
 *
 * 1. builds what the app needs (`turbo run build --filter=<app>...`, quietly: no telemetry banner, one line a
 *    package it builds on stderr, the build's output only when it fails), as the root `pnpm start` does;
 * 2. runs the app's command in a process group of its own, without the noise a user cannot act on (wrangler's
 *    metrics, update notice and offline `Request.cf` fetch; workerd's stacks for a client that went away);
 * 3. stops the whole group (the runtime, and the wrapper that started it) when it is stopped itself — `kill <pid>`
 *    of pnpm, Ctrl-C, or pnpm going away — so that nothing is left holding the port, and then ends with 0, so that
 *    pnpm prints no `ELIFECYCLE` error for a stop that was asked for.
 *
 * Node only (it runs under the Node that runs pnpm's scripts).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { noiseFilter } from "../../../tooling/scripts/lib/noise.ts"

/** The environment of the app's command: quiet tools. */
export const QUIET_ENV: Readonly<Record<string, string>> = {
  TURBO_TELEMETRY_DISABLED: "1",
  // wrangler: no usage metrics, no banner with its update check, no fetch of Request.cf (offline it prints stacks)
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
}

/** The line turbo prints when a package's build starts for real (not restored from its cache). */
const STARTED = /^(\S+):build: cache (?:miss|bypass), (?:force )?executing/

/**
 * Builds `pkg` and what it depends on. A build that has work to do says so on stderr, one line a package, so that a
 * first start (half a minute) does not look hung; one restored from turbo's cache prints nothing. On failure, shows
 * the build's output. Resolves to the exit code.
 */
export const build = (pkg: string): Promise<number> =>
  new Promise((resolve) => {
    const started = Date.now()
    const child = spawn("turbo", ["run", "build", `--filter=${pkg}...`, "--output-logs=new-only"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...QUIET_ENV },
      shell: process.platform === "win32",
    })
    let output = ""
    let pending = ""
    let built = 0
    const line = (text: string): void => {
      output += `${text}\n`
      const name = STARTED.exec(text)?.[1]
      if (name === undefined) return
      if (built === 0) process.stderr.write(`Building ${pkg} and the packages it uses:\n`)
      built++
      process.stderr.write(`  building ${name}\n`)
    }
    child.stdout.on("data", (d: Buffer) => {
      const lines = (pending + d.toString("utf8")).split("\n")
      pending = lines.pop() ?? ""
      for (const l of lines) line(l)
    })
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString("utf8")
    })
    child.on("error", (error) => {
      process.stderr.write(`could not start turbo: ${error.message}\n`)
      resolve(1)
    })
    child.on("close", (code) => {
      if (pending !== "") line(pending)
      if (code === 0) {
        if (built > 0) {
          const seconds = Math.round((Date.now() - started) / 1000)
          process.stderr.write(`Built ${built} package${built === 1 ? "" : "s"} in ${seconds} s.\n\n`)
        }
        resolve(0)
        return
      }
      process.stderr.write(output)
      resolve(code ?? 1)
    })
  })

/** Runs the command in its own process group, until it ends or this process is told to stop. */
export const run = (command: string, args: ReadonlyArray<string>): void => {
  const child: ChildProcess = spawn(command, [...args], {
    stdio: ["inherit", "pipe", "pipe"],
    env: { ...process.env, ...QUIET_ENV },
    detached: process.platform !== "win32",
    shell: process.platform === "win32",
  })
  const out = noiseFilter((t) => process.stdout.write(t))
  const err = noiseFilter((t) => process.stderr.write(t))
  child.stdout?.on("data", (d: Buffer) => out.push(d.toString("utf8")))
  child.stderr?.on("data", (d: Buffer) => err.push(d.toString("utf8")))
  let stopping = false
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      if (process.platform === "win32" || child.pid === undefined) child.kill(signal)
      else process.kill(-child.pid, signal)
    } catch {
      // already gone
    }
  }
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return
    stopping = true
    signalGroup(signal)
    // a runtime that does not stop in time is killed
    setTimeout(() => signalGroup("SIGKILL"), 5000).unref()
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal))
  // pnpm stopped without telling us (its shell was killed): we now have another parent
  const parent = process.ppid
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop("SIGTERM")
  }, 250)
  watch.unref()
  child.on("error", (error) => {
    process.stderr.write(`could not start ${command}: ${error.message}\n`)
    process.exit(1)
  })
  child.on("close", (code, signal) => {
    out.end()
    err.end()
    clearInterval(watch)
    // a stop that was asked for is a success
    process.exit(stopping ? 0 : (code ?? (signal === null ? 1 : 128)))
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2)
  // --build-only: the quiet build alone (the root `pnpm start` runs the demo itself, on the terminal)
  const buildOnly = argv[0] === "--build-only"
  const [pkg, command, ...args] = buildOnly ? argv.slice(1) : argv
  if (pkg === undefined || (command === undefined && !buildOnly)) {
    process.stderr.write("Usage: node launch.ts [--build-only] <workspace package> <command> [args...]\n")
    process.exit(2)
  }
  const code = await build(pkg)
  if (code !== 0 || buildOnly) process.exit(code)
  run(command!, args)
}
