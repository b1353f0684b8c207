import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import { requireShared, sharedSkip } from "@friendli-stream/test-harness/shared"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { expect } from "vitest"
import { generate, parseDocument } from "../../src/generate.ts"

const out = resolve(import.meta.dirname, "../../node_modules/.cache/friendli-public")
const repoRoot = resolve(import.meta.dirname, "../../../..")

/** Generates from Friendli's public (older, larger) OpenAPI document, read from ../shared. */
const SPEC = "reference/friendli-openapi/openapi.yaml"
const generated = async () => {
  const spec = requireShared(SPEC)
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const result = await generate(parseDocument(readFileSync(spec, "utf8")), { source: "friendli-openapi/openapi.yaml" })
  for (const f of result.files) writeFileSync(join(out, f.path), f.contents)
  return result
}

describe.skipIf(sharedSkip(SPEC))("Friendli's public OpenAPI document", () => {
  it("generates without warnings, and the output type-checks under our strict settings", async () => {
    const result = await generated()
    assert.deepStrictEqual(result.warnings, [])
    writeFileSync(
      join(out, "tsconfig.json"),
      JSON.stringify({
        extends: join(repoRoot, "tsconfig.base.json"),
        compilerOptions: { noEmit: true, composite: false, declaration: false, declarationMap: false },
        include: ["*.ts"],
      }),
    )
    const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", out], {
      encoding: "utf8",
    })
    assert.equal(tsc.status, 0, `tsc failed:\n${tsc.stdout}${tsc.stderr}`)
  }, 120_000)

  it("generates the same schemas and guards as the snapshot", async () => {
    const result = await generated()
    for (const f of result.files.filter((x) => x.path !== "openapi.ts")) {
      await expect(f.contents).toMatchFileSnapshot(`../__snapshots__/friendli-public/${f.path}.snap`)
    }
  }, 60_000)

  it("gets guards that agree with their Schemas on valid and mutated values of every component", async () => {
    await generated()
    const mod = (await import(join(out, "index.ts"))) as Record<string, unknown>
    const names = Object.keys(mod).filter((k) => Schema.isSchema(mod[k]))
    assert.ok(names.length > 30, `only ${names.length} schemas`)
    for (const name of names) {
      const schema = Schema.toEncoded(mod[name] as Schema.Codec<unknown, unknown>)
      const guard = mod[`is${name}`] as (u: unknown) => boolean
      const is = Schema.is(schema)
      const values = await Effect.runPromise(Arbitrary.sampleEffect(Arbitrary.schema(schema), { seed: 7, count: 200 }))
      for (const v of values) assert.equal(guard(v), true, `${name}: guard rejects ${JSON.stringify(v)}`)
      for (const v of values) {
        for (const bad of [null, 1, "x", [], {}]) {
          const m =
            typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v, [Object.keys(v)[0] ?? "k"]: bad } : bad
          assert.equal(guard(m), is(m), `${name}: guard and Schema disagree on ${JSON.stringify(m)}`)
        }
      }
    }
  }, 120_000)
})
