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
 * The port the standalone servers listen on by default: not 8787, which `wrangler dev` (the Worker sample) takes.
 *
 * @since 0.2.0
 */
export const DEFAULT_PORT = 8790

/**
 * The one-line usage, printed after a bad option.
 *
 * @since 0.2.0
 */
export const USAGE_LINE = `Usage: friendli-mock [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--token T]... [--model M]... [--faults SPEC]`

/**
 * The usage text (`--help`).
 *
 * @since 0.1.0
 */
export const USAGE = `${USAGE_LINE}

Serves the mock Friendli endpoint. --port 0 picks a free port. --token and --model may repeat (default: any token,
any model). --faults applies a fault spec to every request (see the README of @friendli-stream/testing).`

/**
 * A command line the standalone servers cannot run with; the message names the bad option.
 *
 * @since 0.2.0
 */
export class ArgsError extends Error {
  override readonly name = "ArgsError"
}

/**
 * Parses `--port`, `--host`, `--token`, `--model`, `--faults` (also as `--name=value`). Throws an
 * {@link ArgsError} naming a bad option.
 *
 * @since 0.1.0
 */
export const parseArgs = (argv: ReadonlyArray<string>): CliOptions | { readonly help: true } => {
  let port = DEFAULT_PORT
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
      if (v === undefined) throw new ArgsError(`${name} needs a value`)
      return v
    }
    switch (name) {
      case "--port": {
        const v = value()
        port = Number(v)
        if (v.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535)
          throw new ArgsError(`--port must be 0 to 65535, got "${v}"`)
        break
      }
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
        throw new ArgsError(`unknown option ${arg}`)
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

/**
 * What a standalone server does with its command line: serve with the options, print the usage for `--help`, or, for a
 * bad option, print it and the usage line (no stack) and exit with 2.
 *
 * @since 0.2.0
 */
export const runCli = async (
  argv: ReadonlyArray<string>,
  serve: (options: CliOptions) => Promise<unknown>,
  exit: (code: number) => never,
): Promise<void> => {
  let options: ReturnType<typeof parseArgs>
  try {
    options = parseArgs(argv)
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error
    console.error(`friendli-mock: ${error.message}\n${USAGE_LINE}`)
    return exit(2)
  }
  if ("help" in options) console.log(USAGE)
  else await serve(options)
}
