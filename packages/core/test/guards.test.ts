import assert from "node:assert/strict"
import { isDeepStrictEqual } from "node:util"
import { describe, it } from "@friendli-stream/test-harness"
import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"
import { mutate, mutationArbitrary } from "./support/mutate.ts"
import { check, sampleSize } from "./support/property.ts"
import { components, seedOf } from "./support/schemas.ts"

/**
 * Cases per component and per property: 50,000 valid values and as many mutated ones in all, spread over the
 * components (about 190 per component on Node 24 for the 270 of Friendli's description and ours). The property test
 * of test/node/spec.test.ts generates values from the description itself, every enum value and union member.
 */
const runs = sampleSize(Math.ceil(50_000 / components.length))
/** Generous: workerd and a loaded CI machine run these several times slower than Node alone. */
const timeout = 120_000

describe("compiled guards", () => {
  it("cover every generated schema", () => {
    assert.ok(components.length >= 200, `only ${components.length} components found`)
    for (const name of ["CompletionChunk", "ChatCompletionChunk", "ToolStatusEvent", "ErrorBody", "Usage"]) {
      assert.ok(
        components.some((c) => c.name === name),
        `${name} is missing`,
      )
    }
  })

  for (const c of components) {
    const wire = Schema.toEncoded(c.schema)
    const is = Schema.is(wire)
    const valid = Arbitrary.schema(wire)

    it(
      `${c.name}: accepts every value the Schema accepts`,
      () =>
        check(
          valid,
          (v) => {
            if (!is(v)) return "the arbitrary made a value its own schema rejects"
            return c.guard(v) || "the guard rejects a value the Schema accepts"
          },
          { seed: seedOf(c.name), runs },
        ),
      timeout,
    )

    it(
      `${c.name}: gives the Schema's verdict on mutated values`,
      () =>
        check(
          Arbitrary.all([valid, mutationArbitrary]),
          ([v, { pick, mutation }]) => {
            const m = mutate(v, pick, mutation)
            const verdict = is(m)
            return c.guard(m) === verdict || `the Schema says ${verdict}, the guard ${!verdict} on ${JSON.stringify(m)}`
          },
          { seed: seedOf(c.name) + 1, runs },
        ),
      timeout,
    )

    it(
      `${c.name}: decodes to the wire value itself, so what its guard accepts needs no decoding`,
      () => {
        const decode = Schema.decodeUnknownSync(c.schema)
        return check(
          valid,
          (v) => {
            // A copy, as from JSON.parse: the arbitrary makes some objects without a prototype, and the Schema
            // passes the values of unknown properties through as they are.
            const wire = structuredClone(v)
            const decoded = decode(structuredClone(v))
            return (
              isDeepStrictEqual(wire, decoded) || `wire ${JSON.stringify(wire)}, decoded ${JSON.stringify(decoded)}`
            )
          },
          { seed: seedOf(c.name) + 2, runs: Math.ceil(runs / 5) },
        )
      },
      timeout,
    )
  }
})
