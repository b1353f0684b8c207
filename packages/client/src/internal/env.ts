/**
 * `FRIENDLI_TOKEN` and `FRIENDLI_TEAM` from Effect's `ConfigProvider`: the environment by default (Effect reads it on
 * every runtime it supports), or whatever provider the program installs. Unset, empty or unreadable reads as
 * `undefined` (Deno without `--allow-env` refuses to read: there is then no value).
 */
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** The variables the client reads. */
export interface Environment {
  readonly FRIENDLI_TOKEN: string | undefined
  readonly FRIENDLI_TEAM: string | undefined
}

const read = (name: string): Effect.Effect<string | undefined> =>
  Config.option(Config.String(name)).pipe(
    Effect.map((value) => {
      const trimmed = Option.getOrUndefined(value)?.trim()
      return trimmed === "" ? undefined : trimmed
    }),
    Effect.catchCause(() => Effect.succeed(undefined)),
  )

/** The variables, from the current `ConfigProvider`. */
export const environment: Effect.Effect<Environment> = Effect.all({
  FRIENDLI_TOKEN: read("FRIENDLI_TOKEN"),
  FRIENDLI_TEAM: read("FRIENDLI_TEAM"),
})

const NONE: Environment = { FRIENDLI_TOKEN: undefined, FRIENDLI_TEAM: undefined }

/** The variables, from the environment as it is now (`ConfigProvider.fromEnv`, read at each call). */
export const readEnvironment = (): Environment => {
  let provider: ConfigProvider.ConfigProvider
  try {
    provider = ConfigProvider.fromEnv()
  } catch {
    return NONE // the runtime refuses to read its environment
  }
  return Effect.runSync(Effect.provideService(environment, ConfigProvider.ConfigProvider, provider))
}
