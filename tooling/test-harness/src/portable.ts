/**
 * The part of the harness that is the same on every runner: test bodies and hooks that take no argument and whose
 * return value is dropped (vitest would treat a function returned from `beforeAll` as a teardown, `bun:test` a body
 * that declares a parameter as a `done`-callback test), and skips that carry their reason in the test's name.
 */
import type { DeclareGroup, DeclareTest, TestFunction } from "./index.d.ts"

/** What a runner must provide: its own describe / it / skipped it / hooks. */
export interface Runner {
  readonly describe: (name: string, body: () => void) => void
  readonly it: (name: string, fn: () => Promise<void>, timeout?: number) => void
  /** Declares a test that the runner reports as skipped. */
  readonly skip: (name: string) => void
  readonly beforeAll: (fn: () => Promise<void>, timeout?: number) => void
  readonly afterAll: (fn: () => Promise<void>, timeout?: number) => void
}

/** The name a skipped test is reported under: the reason is in every runner's JUnit report. */
export const skippedName = (name: string, reason: string): string => `${name} [skipped: ${reason}]`

/** The portable API over one runner. */
export const portable = (runner: Runner) => {
  /** The reason of the innermost `describe.skipIf` being declared (its tests are skipped, its hooks dropped). */
  let skipping: string | undefined

  const declareTest: DeclareTest = (name, fn, timeout) => {
    if (skipping !== undefined) runner.skip(skippedName(name, skipping))
    else runner.it(name, async () => void (await fn()), timeout)
  }
  const declareGroup: DeclareGroup = (name, body) => {
    runner.describe(name, () => {
      const result: unknown = body()
      if (result instanceof Promise) {
        throw new Error(`describe("${name}") was given an async body; describe bodies must be synchronous`)
      }
    })
  }
  /** Declares `declare()` with every test in it skipped for `reason` (an outer reason wins). */
  const skippedFor = (reason: string, declare: () => void): void => {
    const outer = skipping
    skipping = outer ?? reason
    try {
      declare()
    } finally {
      skipping = outer
    }
  }
  const hook =
    (register: Runner["beforeAll"]) =>
    (fn: TestFunction, timeout?: number): void => {
      if (skipping === undefined) register(async () => void (await fn()), timeout)
    }

  return {
    describe: Object.assign(declareGroup, {
      skipIf:
        (reason: string | undefined): DeclareGroup =>
        (name, body) =>
          declareGroup(name, reason === undefined ? body : () => skippedFor(reason, body)),
    }),
    it: Object.assign(declareTest, {
      skipIf:
        (reason: string | undefined): DeclareTest =>
        (name, fn, timeout) =>
          reason === undefined ? declareTest(name, fn, timeout) : skippedFor(reason, () => declareTest(name, fn)),
    }),
    beforeAll: hook(runner.beforeAll),
    afterAll: hook(runner.afterAll),
  }
}
