// A real Redis for the tests: Debian's `redis-server` on a free port of 127.0.0.1, with no persistence, started and
// stopped by the test itself. Only `node:` modules (child_process, net, fs), so it runs on Node, Deno and Bun alike.
// One policy for every test that needs it: `redis-server` present, the test runs; absent, the test is reported as
// skipped with the reason; absent under CI (.ci/run installs it), the test runs and fails, saying what is missing.
import { type ChildProcess, spawn } from "node:child_process"
import { accessSync, constants } from "node:fs"
import { createConnection, createServer } from "node:net"
import { delimiter, join } from "node:path"
import process from "node:process"
import { isCI } from "./runtimes.ts"

/**
 * Where `redis-server` is: `REDIS_SERVER` when set, else `/usr/bin/redis-server` (Debian's package), else the first
 * one on `PATH`; `undefined` when there is none.
 *
 * @since 0.3.0
 */
export const redisServerPath = (): string | undefined => {
  const candidates = [
    process.env.REDIS_SERVER,
    "/usr/bin/redis-server",
    ...(process.env.PATH ?? "").split(delimiter).map((dir) => dir && join(dir, "redis-server")),
  ]
  for (const candidate of candidates) {
    if (!candidate) continue
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not there, or not executable: the next one
    }
  }
  return undefined
}

/**
 * Why a test that needs a real Redis cannot run here (for `it.skipIf` / `describe.skipIf`), or `undefined` when it
 * can: `redis-server` is there, or `CI` is set (then the test runs and `startRedis` fails it, naming what is missing).
 *
 * @since 0.3.0
 */
export const redisSkip = (): string | undefined =>
  redisServerPath() !== undefined || isCI()
    ? undefined
    : "redis-server is absent (install Debian's redis-server package, or set REDIS_SERVER to the binary)"

/**
 * What to start: extra `redis-server` arguments, and how long to wait for it to answer.
 *
 * @since 0.3.0
 */
export interface StartRedisOptions {
  /** More arguments for `redis-server`, e.g. `["--maxmemory", "64mb"]`. */
  readonly args?: ReadonlyArray<string>
  /** How long to wait for the first `PONG`, in milliseconds (default 10000). */
  readonly timeoutMs?: number
}

/**
 * A running `redis-server`.
 *
 * @since 0.3.0
 */
export interface StartedRedis {
  /** Its URL, e.g. `redis://127.0.0.1:6399` (for `NodeRedis.layer({ url })` or `REDIS_URL`). */
  readonly url: string
  /** The host it listens on: `127.0.0.1`. */
  readonly host: string
  /** Its port. */
  readonly port: number
  /** Stops it (SIGTERM, then SIGKILL if it has not exited within 5 s); resolves once the process has exited. */
  stop(): Promise<void>
}

/** A port that was free a moment ago on 127.0.0.1 (the OS's pick for port 0). */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port on 127.0.0.1"))))
    })
  })

/** Whether a Redis answers `PING` on this port, within a second. */
const answersPing = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port })
    let reply = ""
    const done = (ok: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(ok)
    }
    const timer = setTimeout(() => done(false), 1000)
    socket.once("error", () => done(false))
    socket.once("close", () => done(false))
    socket.once("connect", () => socket.write("PING\r\n"))
    socket.on("data", (chunk: Uint8Array) => {
      reply += new TextDecoder().decode(chunk)
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"))
    })
  })

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()))

const stopChild = async (child: ChildProcess, port: number): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill("SIGTERM")
  let timer: ReturnType<typeof setTimeout> | undefined
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.kill("SIGKILL")
      resolve()
    }, 5000)
  })
  await Promise.race([exited(child), killed])
  clearTimeout(timer)
  await exited(child)
  // Deno may report the exit before the process has closed its listening socket: wait until it no longer answers.
  for (let i = 0; i < 100 && (await answersPing(port)); i++) await new Promise((resolve) => setTimeout(resolve, 20))
}

const startOnce = async (binary: string, options: StartRedisOptions): Promise<StartedRedis | "port-taken"> => {
  const port = await freePort()
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--daemonize",
    "no",
    "--protected-mode",
    "yes",
    "--loglevel",
    "warning",
    "--dir",
    process.env.TMPDIR || "/tmp",
    ...(options.args ?? []),
  ]
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const capture = (chunk: Uint8Array) => {
    if (output.length < 8192) output += new TextDecoder().decode(chunk)
  }
  child.stdout?.on("data", capture)
  child.stderr?.on("data", capture)
  let spawnError: Error | undefined
  child.once("error", (error) => {
    spawnError = error
  })
  const deadline = Date.now() + (options.timeoutMs ?? 10_000)
  while (Date.now() < deadline) {
    if (spawnError !== undefined) throw new Error(`could not start ${binary}: ${spawnError.message}`)
    if (child.exitCode !== null || child.signalCode !== null) {
      if (/address already in use/i.test(output)) return "port-taken"
      throw new Error(`${binary} exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`)
    }
    if (await answersPing(port)) {
      return { url: `redis://127.0.0.1:${port}`, host: "127.0.0.1", port, stop: () => stopChild(child, port) }
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  await stopChild(child, port)
  throw new Error(
    `${binary} did not answer PING on 127.0.0.1:${port} within ${options.timeoutMs ?? 10_000} ms:\n${output}`,
  )
}

/**
 * Starts `redis-server` on a free port of 127.0.0.1 with no persistence (`--save "" --appendonly no`), resolves once
 * it answers `PING`; stop it with `stop()` (in an `afterAll`). Throws, naming what is missing, when there is no
 * `redis-server` (see {@link redisSkip}).
 *
 * @since 0.3.0
 */
export const startRedis = async (options: StartRedisOptions = {}): Promise<StartedRedis> => {
  const binary = redisServerPath()
  if (binary === undefined) {
    throw new Error(
      `redis-server is missing${isCI() ? " and CI is set (.ci/run installs Debian's redis-server)" : ""}: install it, or set REDIS_SERVER`,
    )
  }
  // Another process may take the free port between the pick and the bind: pick again a few times.
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = await startOnce(binary, options)
    if (started !== "port-taken") return started
  }
  throw new Error(`${binary} found no free port on 127.0.0.1 in 5 attempts`)
}
