/** The harness on vitest (Node, and workerd through `@cloudflare/vitest-pool-workers`). */
import * as vitest from "vitest"
import { portable } from "./portable.ts"

export const { describe, it, beforeAll, afterAll } = portable({
  describe: vitest.describe,
  it: vitest.it,
  skip: (name) => vitest.it.skip(name, () => {}),
  beforeAll: vitest.beforeAll,
  afterAll: vitest.afterAll,
})
