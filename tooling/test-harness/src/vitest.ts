/**
 * The harness on vitest (Node and workerd through `@cloudflare/vitest-pool-workers`).
 *
 * Bodies are wrapped so that they take no argument and their return value is dropped: vitest would
 * otherwise treat a function returned from `beforeAll` as a teardown.
 */
import * as vitest from "vitest"
import type { TestFunction } from "./index.d.ts"

export const describe = (name: string, body: () => void): void => {
  vitest.describe(name, () => {
    body()
  })
}

export const it = (name: string, fn: TestFunction, timeout?: number): void => {
  vitest.it(
    name,
    async () => {
      await fn()
    },
    timeout,
  )
}

export const beforeAll = (fn: TestFunction, timeout?: number): void => {
  vitest.beforeAll(async () => {
    await fn()
  }, timeout)
}

export const afterAll = (fn: TestFunction, timeout?: number): void => {
  vitest.afterAll(async () => {
    await fn()
  }, timeout)
}
