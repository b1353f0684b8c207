import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { describe, it } from "@friendli-stream/test-harness"
import { requireShared } from "@friendli-stream/test-harness/shared"
import { isCompletionChunk } from "../../src/index.ts"

/** The JSON of every `data:` block in the seed document (a block runs until a blank line). */
const dataBlocks = (text: string): Array<string> =>
  text
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter((b) => b.startsWith("data: {"))
    .map((b) => b.slice("data: ".length))

describe("the seed document", () => {
  it("has only chunks that validate: content chunks with a token, the finish chunk without, the usage chunk", () => {
    const seed = requireShared("seed/completions-chunk-object.txt")
    if (seed === undefined) return
    const chunks = dataBlocks(readFileSync(seed, "utf8")).map((json) => JSON.parse(json) as unknown)
    assert.equal(chunks.length, 12, "three copies of the four example chunks")
    for (const chunk of chunks) assert.equal(isCompletionChunk(chunk), true, JSON.stringify(chunk))
    const kinds = chunks.filter(isCompletionChunk).map((n) => {
      if (n.choices.length === 0) return n.usage ? "usage" : "empty"
      return n.choices[0]?.token === undefined ? `finish:${n.choices[0]?.finish_reason}` : "content"
    })
    assert.deepStrictEqual(kinds.slice(0, 4), ["content", "content", "finish:length", "usage"])
  })
})
