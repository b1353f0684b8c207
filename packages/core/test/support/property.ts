/**
 * Property checks on Effect's own `Arbitrary` (Effect 4 derives arbitraries from Schemas without fast-check):
 * `check` runs one and throws the runner's report (the shrunk input, the failure, a replay token) when it fails.
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"

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
