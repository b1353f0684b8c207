/**
 * The harness on `deno test`, built on `Deno.test`.
 *
 * Every `it` becomes one flat `Deno.test` named `outer > inner > test`, so the JUnit report has one
 * test case per `it`. `describe` only records the tree while the module is evaluated. At run time, the
 * `beforeAll` hooks of each enclosing group run before its first test, and its `afterAll` hooks (last
 * declared first, as vitest does) after its last test, even when that test failed. A failing `beforeAll`
 * fails every test of its group; a failing `afterAll` fails the test after which it ran. Timeouts
 * default to 5000 ms, as on vitest and Bun.
 *
 * A skipped test is a `Deno.test` with `ignore`, which deno reports as skipped.
 *
 * Deno's own BDD module (`@std/testing/bdd`) is on jsr only, which is not reachable from every machine the
 * suites run on; hence this small runner. The suites run every test file of a package in one isolate (see
 * denoSuite.ts, which loads each file through {@link declareFile}): each file's tests are one top-level group of
 * their own, so its top-level hooks run around its own tests only.
 */
import type { TestFunction } from "./index.d.ts"
import { portable } from "./portable.ts"

declare const Deno: {
  test(options: {
    name: string
    fn: () => Promise<void>
    ignore?: boolean
    sanitizeOps?: boolean
    sanitizeResources?: boolean
  }): void
}

const DEFAULT_TIMEOUT = 5000

interface Hook {
  readonly fn: TestFunction
  readonly timeout: number
}

interface Test {
  readonly _tag: "Test"
  readonly name: string
  readonly fn: TestFunction
  readonly timeout: number
}

interface Group {
  readonly _tag: "Group"
  readonly name: string
  readonly parent: Group | undefined
  readonly children: Array<Group | Test>
  readonly beforeAll: Array<Hook>
  readonly afterAll: Array<Hook>
  started: boolean
  finished: boolean
  failure: { readonly error: unknown } | undefined
}

const makeGroup = (name: string, parent: Group | undefined): Group => ({
  _tag: "Group",
  name,
  parent,
  children: [],
  beforeAll: [],
  afterAll: [],
  started: false,
  finished: false,
  failure: undefined,
})

const root = makeGroup("", undefined)
let current: Group = root
let collecting = true

const withTimeout = async (what: string, fn: TestFunction, timeout: number): Promise<void> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out in ${timeout}ms`)), timeout)
  })
  try {
    await Promise.race([Promise.resolve().then(fn), expired])
  } finally {
    clearTimeout(timer)
  }
}

const lastTest = (group: Group): Test | undefined => {
  for (let i = group.children.length - 1; i >= 0; i--) {
    const child = group.children[i]!
    const found = child._tag === "Test" ? child : lastTest(child)
    if (found !== undefined) return found
  }
  return undefined
}

/** The chain of groups from the file's root down to `group`. */
const chain = (group: Group): Array<Group> => {
  const groups: Array<Group> = []
  for (let g: Group | undefined = group; g !== undefined; g = g.parent) groups.unshift(g)
  return groups
}

const assertCollecting = (what: string): void => {
  if (!collecting) {
    throw new Error(`${what} was called while tests were running; declare tests and hooks at module or describe level`)
  }
}

const runTest = async (group: Group, test: Test): Promise<void> => {
  const groups = chain(group)
  const errors: Array<unknown> = []
  try {
    for (const g of groups) {
      if (g.failure !== undefined) throw g.failure.error
      if (g.started) continue
      g.started = true
      try {
        for (const hook of g.beforeAll) await withTimeout("beforeAll hook", hook.fn, hook.timeout)
      } catch (error) {
        g.failure = { error }
        throw error
      }
    }
    await withTimeout(`test "${test.name}"`, test.fn, test.timeout)
  } catch (error) {
    errors.push(error)
  } finally {
    for (const g of groups.reverse()) {
      if (g.finished || lastTest(g) !== test) continue
      g.finished = true
      if (!g.started) continue
      for (const hook of [...g.afterAll].reverse()) {
        try {
          await withTimeout("afterAll hook", hook.fn, hook.timeout)
        } catch (error) {
          errors.push(error)
        }
      }
    }
  }
  if (errors.length === 1) throw errors[0]
  if (errors.length > 1)
    throw new AggregateError(errors, `${errors.length} errors in test "${test.name}" and its hooks`)
}

const describeGroup = (name: string, body: () => void): void => {
  assertCollecting(`describe("${name}")`)
  const group = makeGroup(name, current)
  current.children.push(group)
  const parent = current
  current = group
  try {
    body()
  } finally {
    current = parent
  }
}

const fullName = (group: Group, name: string): string =>
  [...chain(group).map((g) => g.name), name].filter((n) => n !== "").join(" > ")

const declareTest = (name: string, fn: TestFunction, timeout: number = DEFAULT_TIMEOUT): void => {
  assertCollecting(`it("${name}")`)
  const group = current
  const test: Test = { _tag: "Test", name, fn, timeout }
  group.children.push(test)
  Deno.test({
    name: fullName(group, name),
    // Hooks may open servers in one test's time and close them in another's, as on the other runners.
    sanitizeOps: false,
    sanitizeResources: false,
    fn: () => {
      collecting = false
      return runTest(group, test)
    },
  })
}

/** A skipped test is no child of its group: the group's afterAll hooks run after its last test that runs. */
const skipTest = (name: string): void => {
  assertCollecting(`it("${name}")`)
  Deno.test({ name: fullName(current, name), ignore: true, fn: async () => {} })
}

/**
 * Evaluates one test file (`load` imports it) with its tests, groups and top-level hooks in a top-level group of its
 * own: its `beforeAll` hooks run before its first test, its `afterAll` hooks after its last. A file that throws while
 * it loads is one failed test, named after the file; the other files run.
 */
export const declareFile = async (file: string, load: () => Promise<unknown>): Promise<void> => {
  assertCollecting(`declareFile("${file}")`)
  current = makeGroup("", undefined)
  try {
    await load()
  } catch (error) {
    Deno.test({
      name: `${file} (loading the file)`,
      fn: () => Promise.reject(error),
    })
  } finally {
    current = root
  }
}

export const { describe, it, beforeAll, afterAll } = portable({
  describe: describeGroup,
  it: declareTest,
  skip: skipTest,
  beforeAll: (fn, timeout = DEFAULT_TIMEOUT) => {
    assertCollecting("beforeAll")
    current.beforeAll.push({ fn, timeout })
  },
  afterAll: (fn, timeout = DEFAULT_TIMEOUT) => {
    assertCollecting("afterAll")
    current.afterAll.push({ fn, timeout })
  },
})
