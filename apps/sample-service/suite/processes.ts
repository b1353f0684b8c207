// A sample service as a process of its own (the runtime running its main.ts, no pnpm in between, so that SIGKILL
// reaches it), for the tests of several instances on one Redis. node:child_process, which Deno and Bun have too.
import { type ChildProcess, spawn } from "node:child_process"

/**
 * How to run a sample as a process: the runtime's binary, its arguments, and the folder to run it in.
 *
 * @since 0.3.0
 */
export interface ServiceCommand {
  /** The runtime's binary (`process.execPath`, `Deno.execPath()`). */
  readonly command: string
  /** e.g. `["main.ts"]`, or `["run", "--allow-net", …, "main.ts"]`. */
  readonly args: ReadonlyArray<string>
  /** The sample's folder. */
  readonly cwd: string
}

/** A running service process. */
export interface ServiceProcess {
  readonly child: ChildProcess
  /** The URL it printed it listens on. */
  readonly url: string
  /** Its embedded mock's URL (`""` when it was given a `FRIENDLI_TOKEN` and streams from elsewhere). */
  readonly mockUrl: string
  /** Everything it printed so far. */
  output(): string
  /** Resolves once it exited. */
  readonly exited: Promise<void>
  /** SIGKILL, and waits until it exited. */
  kill(): Promise<void>
}

/**
 * Starts a sample service with `env` (and `PORT=0`, no token: it serves its own mock, unless `env` has a
 * `FRIENDLI_TOKEN` and `FRIENDLI_BASE_URL`), and waits until it printed where it listens.
 */
export const startService = async (
  service: ServiceCommand,
  env: Readonly<Record<string, string>>,
): Promise<ServiceProcess> => {
  const { FRIENDLI_TOKEN: _, ...inherited } = process.env
  const child = spawn(service.command, [...service.args], {
    cwd: service.cwd,
    env: { ...inherited, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  const exited = new Promise<void>((done) => child.once("close", () => done()))
  const urls = await new Promise<{ url: string; mockUrl: string }>((found, fail) => {
    const read = (d: Uint8Array) => {
      output += new TextDecoder().decode(d)
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      const mockUrl = env.FRIENDLI_TOKEN === undefined ? /embedded mock at (http:\/\/\S+)/.exec(output)?.[1] : ""
      if (url !== undefined && mockUrl !== undefined) found({ url, mockUrl })
    }
    child.stdout!.on("data", read)
    child.stderr!.on("data", read)
    child.once("close", () => fail(new Error(`the service ended before it listened:\n${output}`)))
  })
  return {
    child,
    ...urls,
    output: () => output,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      await exited
    },
  }
}
