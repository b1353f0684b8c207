/** The harness on `bun test`. */
// @ts-expect-error: `bun:test` only exists under Bun; this file is never type-checked by tsc.
import * as bun from "bun:test"
import { portable } from "./portable.ts"

export const { describe, it, beforeAll, afterAll } = portable({
  describe: bun.describe,
  it: bun.it,
  skip: (name: string) => bun.it.skip(name, () => {}),
  beforeAll: bun.beforeAll,
  afterAll: bun.afterAll,
})
