/**
 * Real reasoning streams (../shared/reference/peer-captures, outside the repository: read at run time, never copied):
 * Mistral's content parts, OpenRouter's and Groq's `reasoning`, DeepSeek's `reasoning_content`. Each decodes in
 * compatible mode and folds into a message whose `reasoning_content` and `content` are the texts the capture holds,
 * read independently from its raw JSON; `StreamMetrics` counts one reasoning token per chunk that carries reasoning. Shared by the Node, Deno and Bun suites (workerd has no file access).
 */
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { describe, it } from "@friendli-stream/test-harness"
import { requireShared, sharedSkip } from "@friendli-stream/test-harness/shared"
import * as Effect from "effect/Effect"
import { ChatCompletionStream, StreamMetrics } from "../src/index.ts"
import { referenceChunks } from "./reference-chunks.ts"
import { cutEvery, pieceStream, RUNTIME } from "./support.ts"

/** The reasoning streams, with the start of their reasoning and of their answer as a person reads them. */
const REASONING: Record<string, { readonly reasoning: string; readonly answer: string }> = {
  "pydantic-ai.mistral-thinking.0.body.sse": {
    reasoning: "Okay, the user is asking how to cross the street",
    answer: "To cross the street safely",
  },
  "pydantic-ai.openrouter-reasoning.0.body.sse": { reasoning: "This", answer: "" },
  "pydantic-ai.groq-tool-use-failed-with-text.1.body.sse": { reasoning: "", answer: "" },
  "pydantic-ai.deepseek-thinking.0.body.sse": { reasoning: "", answer: "" },
}

type RawDelta = { content?: unknown; reasoning?: unknown; reasoning_content?: unknown }

/**
 * The reasoning and the answer of a capture, read from its raw chunks (strings, Mistral's parts, either name), and
 * how many chunks carry reasoning.
 */
const rawTexts = (chunks: ReadonlyArray<unknown>): { reasoning: string; answer: string; reasoningChunks: number } => {
  let reasoning = ""
  let answer = ""
  let reasoningChunks = 0
  for (const chunk of chunks as Array<{ choices?: Array<{ delta?: RawDelta | null }> }>) {
    const d = chunk.choices?.[0]?.delta
    if (d == null) continue
    let thought = ""
    if (typeof d.content === "string") answer += d.content
    if (Array.isArray(d.content)) {
      for (const part of d.content as Array<{ type: string; text?: string; thinking?: Array<{ text: string }> }>) {
        if (part.type === "text") answer += part.text
        if (part.type === "thinking") thought += (part.thinking ?? []).map((t) => t.text).join("")
      }
    }
    const r = d.reasoning_content ?? d.reasoning
    if (typeof r === "string") thought += r
    reasoning += thought
    if (thought.length > 0) reasoningChunks++
  }
  return { reasoning, answer, reasoningChunks }
}

/** Declares the suite. */
const peerCaptureSuite = (runtime: string): void => {
  describe.skipIf(sharedSkip("reference/peer-captures/"))(`real reasoning streams (${runtime})`, () => {
    for (const [file, starts] of Object.entries(REASONING)) {
      it(`folds ${file} in compatible mode into its reasoning_content and its content`, async () => {
        const bytes = new Uint8Array(readFileSync(`${requireShared("reference/peer-captures/")}${file}`))
        const expected = rawTexts(referenceChunks(bytes))
        assert.ok(expected.reasoning.length > 0, "the capture holds reasoning")
        assert.ok(expected.reasoning.startsWith(starts.reasoning))
        assert.ok(expected.answer.startsWith(starts.answer))
        for (const pieces of [[bytes], cutEvery(bytes, 7)]) {
          const completion = await Effect.runPromise(
            ChatCompletionStream.accumulate(
              ChatCompletionStream.decode(pieceStream(pieces), { validation: "compatible" }),
            ),
          )
          const message = completion.choices[0]?.message
          assert.equal(message?.reasoning_content, expected.reasoning)
          assert.equal(message?.content ?? "", expected.answer)
        }
        const metrics = await Effect.runPromise(
          StreamMetrics.measure(ChatCompletionStream.decode(pieceStream([bytes]), { validation: "compatible" })),
        )
        assert.equal(metrics.reasoningTokens, expected.reasoningChunks)
        assert.ok(metrics.timeToFirstReasoningTokenMs !== undefined)
      })
    }
  })
}

peerCaptureSuite(RUNTIME)
