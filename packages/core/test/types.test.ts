// The TypeScript types openapi-typescript writes from the description (src/generated/openapi.ts) and the types of
// the generated Effect Schemas are the same types, for every component: a type-level check (it fails `pnpm
// typecheck`, naming the components that differ), plus a runtime test that the check covers every Schema.
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Schema from "effect/Schema"
import type { components } from "../src/generated/openapi.ts"
import * as Schemas from "../src/generated/schemas.ts"

type Names = keyof components["schemas"] & keyof typeof Schemas

/**
 * openapi-typescript's types as an Effect Schema types them: arrays and properties read-only, and an optional
 * property may also be `undefined` (the guards allow it, as JSON never has it).
 */
type AsDecoded<T> =
  T extends ReadonlyArray<infer E>
    ? ReadonlyArray<AsDecoded<E>>
    : T extends object
      ? { readonly [K in keyof T]: undefined extends Pick<T, K>[K] ? AsDecoded<T[K]> | undefined : AsDecoded<T[K]> }
      : T

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

type TypeOf<K extends Names> = (typeof Schemas)[K] extends { readonly Type: infer A } ? A : never

/** The components whose two types differ (`never` when none do). */
type Differ = { [K in Names]: Same<AsDecoded<components["schemas"][K]>, TypeOf<K>> extends true ? never : K }[Names]

/** Compiles only when no component differs; otherwise the error names them. */
const noneDiffer: [Differ] extends [never] ? true : { readonly differ: Differ } = true

describe("openapi-typescript's types and the Effect Schemas' types", () => {
  it("are compared for every generated Schema", () => {
    assert.equal(noneDiffer, true)
    const schemas = Object.keys(Schemas).filter((k) => Schema.isSchema((Schemas as Record<string, unknown>)[k]))
    assert.ok(schemas.length >= 250, `only ${schemas.length} Schemas`)
  })
})
