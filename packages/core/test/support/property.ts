/**
 * Property checks on Effect's own `Arbitrary` (Effect 4 derives arbitraries from Schemas without fast-check):
 * `check` runs one and throws a report (the failing value, its seed and size, and the shrunk input that Effect's own
 * check finds) when it fails.
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

/** The sizes a check spreads its values over, as Effect's own check does (0 up to its default size, 10). */
const SIZES = 11

/** A value as the failure message shows it (JSON where it can be, e.g. not for a bigint). */
const show = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * Checks a property on `runs` values of an arbitrary, from a fixed seed. The values are spread over sizes 0 to 10 as
 * Effect's `Arbitrary.checkEffect` spreads them, but made without the shrink candidates that `checkEffect` builds for
 * every value (2.7 times faster on the generated schemas: shrinking only matters once a value fails). On a failure,
 * the error names the value, its seed and size, and adds what `checkEffect`'s own search (with shrinking) finds on the
 * same seed, when it finds one.
 */
export const check = async <A>(
  arbitrary: Arbitrary.Arbitrary<A>,
  property: (value: A) => Verdict,
  options: { readonly seed: number; readonly runs: number },
): Promise<void> => {
  const { seed, runs } = options
  for (let size = 0; size < SIZES; size++) {
    const count = Math.floor((runs * (size + 1)) / SIZES) - Math.floor((runs * size) / SIZES)
    if (count === 0) continue
    const values = await Effect.runPromise(Arbitrary.sampleEffect(arbitrary, { seed: `${seed}:${size}`, count, size }))
    for (const value of values) {
      const verdict = property(value)
      if (verdict === true) continue
      const result = await Effect.runPromise(
        Arbitrary.checkEffect(arbitrary, (v) => (property(v) === true ? true : Effect.fail(property(v))), options),
      )
      const shrunk = Arbitrary.formatCheckFailure(result)
      throw new Error(
        `seed ${seed}, size ${size}: ${verdict}\nvalue: ${show(value)}` +
          (shrunk === undefined ? "" : `\nEffect's check on seed ${seed}, shrunk: ${shrunk}`),
      )
    }
  }
}
