/**
 * Mutations that turn a valid value into a probably invalid one: a wrong type, a missing property, a wrong
 * enum value, a null where none is allowed, an unknown extra property. Each is applied at one place in the
 * value, chosen by index among all the places it has.
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"

export type Mutation =
  | { readonly op: "replace"; readonly with: unknown }
  | { readonly op: "delete" }
  | { readonly op: "extra"; readonly key: string; readonly with: unknown }

const places = (value: unknown, out: Array<unknown[]> = [], path: unknown[] = []): Array<unknown[]> => {
  out.push(path)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) places(value[i], out, [...path, i])
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) places(v, out, [...path, k])
  }
  return out
}

const wrongValues: ReadonlyArray<unknown> = [null, 0, -1, 1.5, "", "__bogus__", "null", true, [], {}, [1], { x: 1 }]

/** One of `values`, picked by index. */
const oneOf = <A>(values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> =>
  Arbitrary.map(
    Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: values.length - 1 }))),
    (i) => values[i]!,
  )

const mutations: ReadonlyArray<Arbitrary.Arbitrary<Mutation>> = [
  Arbitrary.map(oneOf(wrongValues), (w): Mutation => ({ op: "replace", with: w })),
  Arbitrary.Constant<Mutation>({ op: "delete" }),
  Arbitrary.map(
    Arbitrary.all({ key: Arbitrary.schema(Schema.String), with: Arbitrary.schema(Schema.Unknown) }),
    (e): Mutation => ({ op: "extra", key: e.key, with: e.with }),
  ),
]

/** An arbitrary mutation; `pick` chooses the place. */
export const mutationArbitrary: Arbitrary.Arbitrary<{ readonly pick: number; readonly mutation: Mutation }> =
  Arbitrary.all({
    pick: Arbitrary.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
    mutation: Arbitrary.flatMap(oneOf(mutations), (m) => m),
  })

/** Applies a mutation to a deep copy of `value`. */
export const mutate = (value: unknown, pick: number, mutation: Mutation): unknown => {
  const copy: unknown = structuredClone(value)
  const all = places(copy)
  const path = all[pick % all.length]!
  if (path.length === 0) {
    if (mutation.op === "replace") return mutation.with
    if (mutation.op === "extra" && typeof copy === "object" && copy !== null && !Array.isArray(copy)) {
      ;(copy as Record<string, unknown>)[mutation.key] = mutation.with
    }
    return copy
  }
  let parent = copy as Record<string | number, unknown>
  for (const step of path.slice(0, -1)) parent = parent[step as string] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (mutation.op === "replace") parent[last] = mutation.with
  else if (mutation.op === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1)
    else delete parent[last]
  } else {
    const target = parent[last]
    if (typeof target === "object" && target !== null && !Array.isArray(target)) {
      ;(target as Record<string, unknown>)[mutation.key] = mutation.with
    }
  }
  return copy
}
