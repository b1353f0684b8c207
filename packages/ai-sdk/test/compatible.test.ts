// validation: "compatible": another OpenAI-compatible server's stream (here a hand-written one, served by the
// provider's fetch), read leniently; the same stream is refused in strict mode with our ChunkDecodeError.
import assert from "node:assert/strict"
import { ChunkDecodeError } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { streamText } from "ai"
import { createFriendli } from "../src/index.ts"

const chunk = (choice: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: "gen-1", object: "chat.completion.chunk", created: 1733382157, model: "other", choices: [choice], ...extra })}\n\n`

/** A server that thinks in `delta.reasoning` (OpenRouter, Groq, vLLM) and ends with `content_filter`. */
const BODY =
  chunk({ index: 0, delta: { role: "assistant", reasoning: "Let me think." } }) +
  chunk({ index: 0, delta: { content: "Hello" } }) +
  chunk({ index: 0, delta: {}, finish_reason: "content_filter" }) +
  chunk({ index: 0, delta: {} }, { choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }) +
  "data: [DONE]\n\n"

const serving = (body: string) => async () => new Response(body, { headers: { "content-type": "text/event-stream" } })
const fetch = serving(BODY)

/** A stream that ends with the given `finish_reason` (none: the chunk has none). */
const ending = (finish: string | undefined) =>
  chunk({ index: 0, delta: { content: "Hi" } }) +
  chunk({ index: 0, delta: {}, ...(finish === undefined ? {} : { finish_reason: finish }) }) +
  "data: [DONE]\n\n"

describe("validation", () => {
  it('"compatible" reads another server\'s reasoning and finish reason', async () => {
    const friendli = createFriendli({ baseURL: "http://127.0.0.1:9", fetch, validation: "compatible" })
    const result = streamText({ model: friendli("other"), prompt: "Hi" })
    assert.equal(await result.text, "Hello")
    assert.equal(await result.reasoningText, "Let me think.")
    assert.equal(await result.finishReason, "content-filter")
    assert.equal((await result.usage).totalTokens, 5)
  })

  it('"strict" (the default) refuses a chunk outside Friendli\'s spec with our ChunkDecodeError', async () => {
    const friendli = createFriendli({ baseURL: "http://127.0.0.1:9", fetch })
    const result = streamText({ model: friendli("other"), prompt: "Hi", onError: () => {} })
    await assert.rejects(Promise.resolve(result.text), ChunkDecodeError)
  })

  it("reports a finish reason Friendli does not name as other with the server's word, and a missing one as other", async () => {
    for (const [finish, raw] of [
      ["eos_token", "eos_token"],
      [undefined, undefined],
    ] as const) {
      const friendli = createFriendli({
        baseURL: "http://127.0.0.1:9",
        fetch: serving(ending(finish)),
        validation: "compatible",
      })
      const result = streamText({ model: friendli("other"), prompt: "Hi" })
      assert.equal(await result.text, "Hi")
      assert.equal(await result.finishReason, "other", `finish_reason ${String(finish)}`)
      assert.equal(await result.rawFinishReason, raw, `finish_reason ${String(finish)}`)
    }
  })
})
