import assert from "node:assert/strict"
import { existsSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, it } from "@friendli-stream/test-harness"
import { isCompletionChunk, normalizeCompletionChunk } from "../../src/index.ts"

const seed = resolve(import.meta.dirname, "../../../../../shared/seed/completions-chunk-object.txt")

/** The JSON of every `data:` block in the seed document (a block runs until a blank line). */
const dataBlocks = (text: string): Array<string> =>
  text
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter((b) => b.startsWith("data: {"))
    .map((b) => b.slice("data: ".length))

describe("the seed document", () => {
  it("has only chunks that validate: content chunks with a token, the finish chunk without, the usage chunk", () => {
    if (!existsSync(seed)) {
      if (process.env.CI) throw new Error(`${seed} is missing: CI must have ../shared beside the repository`)
      console.warn(`skipping: ${seed} is absent (it exists only on the team's machines)`)
      return
    }
    const chunks = dataBlocks(readFileSync(seed, "utf8")).map((json) => JSON.parse(json) as unknown)
    assert.equal(chunks.length, 12, "three copies of the four example chunks")
    for (const chunk of chunks) assert.equal(isCompletionChunk(chunk), true, JSON.stringify(chunk))
    const kinds = chunks.filter(isCompletionChunk).map((c) => {
      const n = normalizeCompletionChunk(c)
      if (n.choices.length === 0) return n.usage ? "usage" : "empty"
      return n.choices[0]?.token === undefined ? `finish:${n.choices[0]?.finish_reason}` : "content"
    })
    assert.deepStrictEqual(kinds.slice(0, 4), ["content", "content", "finish:length", "usage"])
  })
})
