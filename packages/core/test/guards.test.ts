import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
// Effect derives arbitraries with the fast-check it bundles (3.x), so these properties run on that one.
import { Arbitrary, FastCheck as fc, Schema } from "effect"
import { mutate, mutationArbitrary } from "./support/mutate.ts"
import { components, seedOf } from "./support/schemas.ts"

/** Cases per component and per property: 10,000 valid values and 10,000 mutated ones per schema. */
const runs = 10_000
/** Generous: workerd and a loaded CI machine run these several times slower than Node alone. */
const timeout = 120_000

describe("compiled guards", () => {
  it("cover every generated schema", () => {
    assert.ok(components.length >= 40, `only ${components.length} components found`)
    for (const name of ["CompletionChunk", "ChatCompletionChunk", "ToolStatusEvent", "ErrorBody", "Usage"]) {
      assert.ok(
        components.some((c) => c.name === name),
        `${name} is missing`,
      )
    }
  })

  for (const c of components) {
    const wire = Schema.encodedBoundSchema(c.schema)
    const is = Schema.is(wire)
    const valid = Arbitrary.make(wire)

    it(
      `${c.name}: accepts every value the Schema accepts`,
      () => {
        fc.assert(
          fc.property(valid, (v) => {
            assert.equal(is(v), true, "the arbitrary made a value its own schema rejects")
            assert.equal(c.guard(v), true)
          }),
          { seed: seedOf(c.name), numRuns: runs },
        )
      },
      timeout,
    )

    it(
      `${c.name}: gives the Schema's verdict on mutated values`,
      () => {
        fc.assert(
          fc.property(valid, mutationArbitrary, (v, { pick, mutation }) => {
            const m = mutate(v, pick, mutation)
            assert.equal(c.guard(m), is(m), `guard and Schema disagree on ${JSON.stringify(m)}`)
          }),
          { seed: seedOf(c.name) + 1, numRuns: runs },
        )
      },
      timeout,
    )

    it(
      `${c.name}: normalizes in place to what the Schema decodes`,
      () => {
        const decode = Schema.decodeUnknownSync(c.schema)
        fc.assert(
          fc.property(valid, (v) => {
            // Effect rebuilds records by assignment, so a "__proto__" key is lost in decoding; we keep it.
            fc.pre(!JSON.stringify(v).includes('"__proto__"'))
            const decoded = decode(v)
            assert.deepStrictEqual(c.normalize(structuredClone(v)), decoded)
          }),
          { seed: seedOf(c.name) + 2, numRuns: Math.ceil(runs / 5) },
        )
      },
      timeout,
    )
  }
})
