/**
 * Environment variables on every runtime without `node:` imports: `process.env` (Node, Bun, Workers with
 * `nodejs_compat`), then `Deno.env` (guarded: without `--allow-env` Deno throws, and then there is no value).
 */

interface ProcessLike {
  readonly env?: Readonly<Record<string, string | undefined>>
}

interface DenoLike {
  readonly env?: { get(name: string): string | undefined }
}

/** The value of an environment variable, or `undefined` when it is unset, empty or cannot be read. */
export const readEnv = (name: string): string | undefined => {
  const g = globalThis as { readonly process?: ProcessLike; readonly Deno?: DenoLike }
  let value: string | undefined
  try {
    value = g.process?.env?.[name]
  } catch {
    value = undefined
  }
  if (value === undefined && g.Deno?.env !== undefined) {
    try {
      value = g.Deno.env.get(name)
    } catch {
      value = undefined
    }
  }
  value = value?.trim()
  return value === undefined || value === "" ? undefined : value
}
