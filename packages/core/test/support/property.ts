/**
 * Property checks on Effect's own `Arbitrary` (Effect 4 derives arbitraries from Schemas without fast-check):
 * `check` runs one and throws the runner's report (the shrunk input, the failure, a replay token) when it fails.
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"

const g = globalThis as {
  readonly Deno?: unknown
  readonly Bun?: unknown
  readonly navigator?: { readonly userAgent?: string }
  readonly process?: { readonly versions?: { readonly node?: string } }
}

/**
 * Whether this runtime runs the property tests at full size: Node 24 does; Node 22, Deno, Bun and workerd run a
 * tenth of the values (the same seeds, so the first values are the same), which keeps `pnpm test` short without
 * losing a runtime.
 */
export const fullSize: boolean =
  g.Deno === undefined &&
  g.Bun === undefined &&
  g.navigator?.userAgent !== "Cloudflare-Workers" &&
  g.process?.versions?.node?.startsWith("24.") === true

/** How many values a property is checked on here: `full` on the full-size runtime, a tenth elsewhere. */
export const sampleSize = (full: number): number => (fullSize ? full : Math.ceil(full / 10))

/** What a property returns for one value: `true` when it holds, otherwise why it does not. */
export type Verdict = true | string

/** Checks a property on `runs` values of an arbitrary, from a fixed seed. */
export const check = async <A>(
  arbitrary: Arbitrary.Arbitrary<A>,
  property: (value: A) => Verdict,
  options: { readonly seed: number; readonly runs: number },
): Promise<void> => {
  const result = await Effect.runPromise(
    Arbitrary.checkEffect(
      arbitrary,
      (value) => {
        const verdict = property(value)
        return verdict === true ? true : Effect.fail(verdict)
      },
      options,
    ),
  )
  const failure = Arbitrary.formatCheckFailure(result)
  if (failure !== undefined) throw new Error(`seed ${options.seed}: ${failure}`)
}
