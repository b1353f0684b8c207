// A server in a process of its own, for the load runs: started, its URL read from its `listening on URL` line.
import { spawn } from "node:child_process"

/** A running server process: the URL it printed, its pid, and `stop`, which kills it and waits for its end. */
export interface Listening {
  readonly url: string
  readonly pid: number
  readonly stop: () => Promise<void>
}

/** Runs `node <args>` (this Node) in `cwd` and resolves once it prints `listening on <url>`; fails if it ends first. */
export const spawnListening = async (args: ReadonlyArray<string>, cwd?: string): Promise<Listening> => {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const url = await new Promise<string>((found, fail) => {
    const read = (d: Uint8Array) => {
      output += new TextDecoder().decode(d)
      const at = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (at !== undefined) found(at)
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    child.once("close", () => fail(new Error(`${args[0]} ended before it listened:\n${output}`)))
  })
  const exited = new Promise<void>((done) => child.once("close", () => done()))
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      await exited
    },
  }
}
