/**
 * Every generated component, found by walking the generated exports: its Schema and its guard.
 * New components are covered by the tests without anyone listing them.
 */
import * as Schema from "effect/Schema"
import * as Guards from "../../src/generated/guards.ts"
import * as Schemas from "../../src/generated/schemas.ts"

export interface GeneratedComponent {
  readonly name: string
  readonly schema: Schema.Codec<unknown, unknown>
  readonly guard: (u: unknown) => boolean
}

const guards = Guards as unknown as Record<string, (u: unknown) => unknown>

export const components: ReadonlyArray<GeneratedComponent> = Object.entries(Schemas as Record<string, unknown>)
  .filter((entry): entry is [string, Schema.Codec<unknown, unknown>] => Schema.isSchema(entry[1]))
  .map(([name, schema]) => {
    const guard = guards[`is${name}`]
    if (guard === undefined) throw new Error(`no guard for ${name}`)
    return {
      name,
      schema,
      guard: (u) => guard(u) === true,
    }
  })

/** A stable seed per component, so a failure replays the same way everywhere. */
export const seedOf = (name: string): number => {
  let h = 2166136261
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619)
  return h >>> 0
}
