/**
 * The harness on `bun test`.
 *
 * Bodies are wrapped so that they take no argument: `bun:test` treats a function that declares a
 * parameter as a `done`-callback test.
 */
// @ts-expect-error: `bun:test` only exists under Bun; this file is never type-checked by tsc.
import * as bun from "bun:test"
import type { TestFunction } from "./index.d.ts"

export const describe = (name: string, body: () => void): void => {
  bun.describe(name, () => {
    body()
  })
}

export const it = (name: string, fn: TestFunction, timeout?: number): void => {
  bun.it(
    name,
    async () => {
      await fn()
    },
    timeout,
  )
}

export const beforeAll = (fn: TestFunction, timeout?: number): void => {
  bun.beforeAll(async () => {
    await fn()
  }, timeout)
}

export const afterAll = (fn: TestFunction, timeout?: number): void => {
  bun.afterAll(async () => {
    await fn()
  }, timeout)
}
