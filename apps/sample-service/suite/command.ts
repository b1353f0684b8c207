// The one command a person runs, `pnpm --filter <the sample> start`, as a child process with no configuration at
// all: it must serve the embedded mock and stream from it over HTTP, and `kill <pid>` of pnpm must stop it and free
// its port. node:child_process and node:net, which Deno and Bun have too.
import assert from "node:assert/strict"
import { type ChildProcess, spawn } from "node:child_process"
import { connect } from "node:net"
import { fileURLToPath } from "node:url"
import { describe, it } from "@friendli-stream/test-harness"
import { post, readSse, textOf } from "./sse.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** A running `pnpm --filter <package> start`, and what it printed so far. */
export interface StartedCommand {
  readonly child: ChildProcess
  /** The URL it printed it listens on. */
  readonly url: string
  /** Everything it printed, stdout and stderr. */
  output(): string
  /** Resolves with the exit code once it ended. */
  readonly exited: Promise<number | null>
}

/**
 * Starts `pnpm --filter <packageName> start [...args]` from the repository root, with no token, and waits until its
 * output has a URL matching `listening` (its first group).
 */
export const startCommand = async (
  packageName: string,
  args: ReadonlyArray<string>,
  listening: RegExp,
  env: Readonly<Record<string, string>> = {},
): Promise<StartedCommand> => {
  const { FRIENDLI_TOKEN: _, ...inherited } = process.env
  const child = spawn("pnpm", ["--filter", packageName, "start", ...args], {
    cwd: root,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // its own process group, so that a failed test can still stop everything it started
    detached: true,
  })
  let output = ""
  const exited = new Promise<number | null>((done) => child.once("close", done))
  const url = await new Promise<string>((found, fail) => {
    const read = (d: Uint8Array) => {
      output += new TextDecoder().decode(d)
      const url = listening.exec(output)?.[1]
      if (url !== undefined) found(url)
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    child.once("close", () => fail(new Error(`the app ended before it listened:\n${output}`)))
  })
  return { child, url, output: () => output, exited }
}

/** Whether something accepts connections at the URL's port. */
const accepting = (url: string): Promise<boolean> =>
  new Promise((done) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname === "localhost" ? "127.0.0.1" : hostname, port: Number(port) })
    socket.once("connect", () => {
      socket.destroy()
      done(true)
    })
    socket.once("error", () => done(false))
  })

/**
 * Stops the command as a person does — SIGTERM to the pnpm process alone (`kill <pid>`), or SIGINT to its whole
 * process group (Ctrl-C in a terminal) — and waits until the port is free, checking every 100 ms for at most
 * `deadlineMs`; then stops the group in any case. Returns how long the port took to close.
 */
export const killAndWaitForPort = async (
  started: StartedCommand,
  how: "kill" | "ctrl-c" = "kill",
  deadlineMs = 30_000,
): Promise<number> => {
  const { child, url } = started
  const from = Date.now()
  try {
    if (how === "kill") child.kill("SIGTERM")
    else process.kill(-child.pid!, "SIGINT")
    for (;;) {
      if (!(await accepting(url))) {
        const closedAfter = Date.now() - from
        // then pnpm ends (its exit code is the test's to check)
        await Promise.race([started.exited, new Promise((r) => setTimeout(r, 10_000))])
        return closedAfter
      }
      if (Date.now() - from > deadlineMs) {
        assert.fail(
          `${url} still accepts connections ${Date.now() - from} ms after SIGTERM to pnpm:\n${started.output()}`,
        )
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  } finally {
    try {
      process.kill(-child.pid!, "SIGKILL")
    } catch {
      // already gone
    }
  }
}

/** pnpm's complaint about a script that failed, which a stop the user asked for must not cause. */
export const PNPM_NOISE = /ELIFECYCLE|ERR_PNPM/

export const commandTests = (packageName: string): void =>
  describe(`pnpm --filter ${packageName} start`, () => {
    it("builds what it needs, serves the app with no configuration, streaming from the embedded mock, and stops on kill <pid> of pnpm, freeing its port", async () => {
      const started = await startCommand(packageName, [], /listening on (http:\/\/\S+)/, { PORT: "0" })
      try {
        assert.match(
          started.output(),
          /No FRIENDLI_TOKEN: streaming from the embedded mock at http:\/\/127\.0\.0\.1:\d+/,
        )
        const res = await post(started.url, { prompt: "Once upon a time", max_tokens: 6 })
        assert.equal(res.status, 200)
        const { events } = await readSse(res)
        assert.equal(events.at(-1), "[DONE]")
        assert.ok(textOf(events).trim().length > 0)
      } finally {
        await killAndWaitForPort(started)
      }
      await started.exited
      assert.doesNotMatch(started.output(), PNPM_NOISE, started.output())
    }, 90_000)

    it("stops on Ctrl-C, freeing its port, without pnpm's ELIFECYCLE noise", async () => {
      const started = await startCommand(packageName, [], /listening on (http:\/\/\S+)/, { PORT: "0" })
      await killAndWaitForPort(started, "ctrl-c")
      await started.exited
      assert.doesNotMatch(started.output(), PNPM_NOISE, started.output())
    }, 90_000)
  })
