import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import { requireShared } from "@friendli-stream/test-harness/shared"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { expect } from "vitest"
import { generate, parseDocument } from "../../src/generate.ts"

const cache = resolve(import.meta.dirname, "../../node_modules/.cache")
const repoRoot = resolve(import.meta.dirname, "../../../..")

/** Friendli's published descriptions in ../shared: the November 2024 one (snapshotted) and the current one. */
const specs = [
  { file: "reference/friendli-openapi/openapi.yaml", name: "friendli-public", snapshot: true },
  { file: "reference/friendli-openapi/openapi-2026-07-22.yaml", name: "friendli-2026-07-22", snapshot: false },
] as const

/** Generates from one of Friendli's published descriptions, read from ../shared. */
const generated = async (spec: (typeof specs)[number]) => {
  const file = requireShared(spec.file)
  if (file === undefined) return undefined
  const out = resolve(cache, spec.name)
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const result = await generate(parseDocument(readFileSync(file, "utf8")), { source: spec.file })
  for (const f of result.files) writeFileSync(join(out, f.path), f.contents)
  return { result, out }
}

for (const spec of specs) {
  describe(`Friendli's published description ${spec.file}`, () => {
    it("generates without warnings, and the output type-checks under our strict settings", async () => {
      const g = await generated(spec)
      if (g === undefined) return
      assert.deepStrictEqual(g.result.warnings, [])
      writeFileSync(
        join(g.out, "tsconfig.json"),
        JSON.stringify({
          extends: join(repoRoot, "tsconfig.base.json"),
          compilerOptions: { noEmit: true, composite: false, declaration: false, declarationMap: false },
          include: ["*.ts"],
        }),
      )
      const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", g.out], {
        encoding: "utf8",
      })
      assert.equal(tsc.status, 0, `tsc failed:\n${tsc.stdout}${tsc.stderr}`)
    }, 300_000)

    if (spec.snapshot) {
      it("generates the same schemas and guards as the snapshot", async () => {
        const g = await generated(spec)
        if (g === undefined) return
        for (const f of g.result.files.filter((x) => x.path !== "openapi.ts")) {
          await expect(f.contents).toMatchFileSnapshot(`../__snapshots__/${spec.name}/${f.path}.snap`)
        }
      }, 60_000)
    }

    it("gets guards that agree with their Schemas on valid and mutated values of every component", async () => {
      const g = await generated(spec)
      if (g === undefined) return
      const mod = (await import(join(g.out, "index.ts"))) as Record<string, unknown>
      const names = Object.keys(mod).filter((k) => Schema.isSchema(mod[k]))
      assert.ok(names.length > 30, `only ${names.length} schemas`)
      for (const name of names) {
        const schema = Schema.toEncoded(mod[name] as Schema.Codec<unknown, unknown>)
        const guard = mod[`is${name}`] as (u: unknown) => boolean
        const is = Schema.is(schema)
        const values = await Effect.runPromise(Arbitrary.sampleEffect(Arbitrary.schema(schema), { seed: 7, count: 50 }))
        for (const v of values) assert.equal(guard(v), true, `${name}: guard rejects ${JSON.stringify(v)}`)
        for (const v of values) {
          for (const bad of [null, 1, "x", [], {}]) {
            const m =
              typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v, [Object.keys(v)[0] ?? "k"]: bad } : bad
            assert.equal(guard(m), is(m), `${name}: guard and Schema disagree on ${JSON.stringify(m)}`)
          }
        }
      }
    }, 300_000)
  })
}
