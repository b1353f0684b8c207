/**
 * Command-line options of the standalone mock servers.
 *
 * @since 0.1.0
 */
import type { MockFriendliOptions } from "../MockFriendli.ts"

/**
 * What the command line asked for.
 *
 * @since 0.1.0
 */
export interface CliOptions {
  readonly port: number
  readonly hostname: string
  readonly mock: MockFriendliOptions
}

/**
 * The usage text.
 *
 * @since 0.1.0
 */
export const USAGE = `Usage: friendli-mock [--port 8787] [--host 127.0.0.1] [--token T]... [--model M]... [--faults SPEC]

Serves the mock Friendli endpoint. --token and --model may repeat (default: any token, any model).
--faults applies a fault spec to every request (see the README of @friendli-stream/testing).`

/**
 * Parses `--port`, `--host`, `--token`, `--model`, `--faults` (also as `--name=value`).
 *
 * @since 0.1.0
 */
export const parseArgs = (argv: ReadonlyArray<string>): CliOptions | { readonly help: true } => {
  let port = 8787
  let hostname = "127.0.0.1"
  const tokens: Array<string> = []
  const models: Array<string> = []
  let faults: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "--help" || arg === "-h") return { help: true }
    const eq = arg.indexOf("=")
    const name = eq < 0 ? arg : arg.slice(0, eq)
    const value = (): string => {
      const v = eq < 0 ? argv[++i] : arg.slice(eq + 1)
      if (v === undefined) throw new Error(`${name} needs a value.\n\n${USAGE}`)
      return v
    }
    switch (name) {
      case "--port":
        port = Number(value())
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new Error(`--port must be 0 to 65535.\n\n${USAGE}`)
        break
      case "--host":
        hostname = value()
        break
      case "--token":
        tokens.push(value())
        break
      case "--model":
        models.push(value())
        break
      case "--faults":
        faults = value()
        break
      default:
        throw new Error(`Unknown option ${arg}.\n\n${USAGE}`)
    }
  }
  return {
    port,
    hostname,
    mock: {
      ...(tokens.length > 0 ? { tokens } : {}),
      ...(models.length > 0 ? { models } : {}),
      ...(faults === undefined ? {} : { faults }),
    },
  }
}
