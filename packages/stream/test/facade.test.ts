import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import {
  ApiError,
  decodeChatCompletionStream,
  decodeCompletionStream,
  decodeToolAssistedChatStream,
  SseError,
  StreamTruncated,
} from "../src/index.ts"
import { bytes, chatChunk, completionChunk, cutEvery, reads, sseBody, testBody } from "./support.ts"

describe("plain facade", () => {
  it("iterates typed completion chunks with for await", async () => {
    const { body, state } = testBody(cutEvery(bytes(sseBody([completionChunk("a"), completionChunk("b")])), 7))
    const { items, error } = await collect(decodeCompletionStream(body))
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((c) => c.choices[0]?.text),
      ["a", "b"],
    )
    assert.equal(state.cancelled, true)
  })

  it("throws the same typed errors after every whole chunk was delivered", async () => {
    const { body } = testBody(reads(sseBody([completionChunk("a"), completionChunk("b")], { done: false })))
    const { items, error } = await collect(decodeCompletionStream(body))
    assert.equal(items.length, 2)
    assert.ok(error instanceof StreamTruncated)
  })

  it("cancels the body when the loop is broken out of", async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => completionChunk(String(i)))
    const { body, state } = testBody(reads(...chunks.map((c) => sseBody([c], { done: false }))), { slow: true })
    let seen = 0
    for await (const _ of decodeCompletionStream(body)) {
      seen++
      if (seen === 3) break
    }
    assert.equal(seen, 3)
    assert.equal(state.cancelled, true)
    assert.ok(state.pulls < 50)
  })

  it("reports a failing body as SseError ReadFailed", async () => {
    const { body } = testBody(reads(sseBody([completionChunk("a")], { done: false })), { error: new Error("reset") })
    const { items, error } = await collect(decodeCompletionStream(body))
    assert.equal(items.length, 1)
    assert.ok(error instanceof SseError)
    assert.equal(error.reason, "ReadFailed")
    assert.match(error.message, /reset/)
  })

  it("reports a body that is already locked as SseError ReadFailed", async () => {
    const { body } = testBody(reads(sseBody([completionChunk("a")])))
    body.getReader()
    const { error } = await collect(decodeCompletionStream(body))
    assert.ok(error instanceof SseError)
    assert.equal(error.reason, "ReadFailed")
  })

  it("decodes chat chunks, with compatible validation when asked", async () => {
    const { body } = testBody(reads(sseBody([chatChunk({ role: "assistant", content: "hi" })])))
    const { items } = await collect(decodeChatCompletionStream(body))
    assert.equal(items[0]?.choices[0]?.delta.content, "hi")
    const lenient = testBody(reads(sseBody([{ id: "", created: 0, choices: [{ index: 0, delta: { content: "x" } }] }])))
    const compat = await collect(decodeChatCompletionStream(lenient.body, { validation: "compatible" }))
    assert.equal(compat.error, undefined)
    assert.equal(compat.items[0]?.choices[0]?.delta?.content, "x")
  })

  it("keeps tool_status events as their own variant", async () => {
    const status = {
      tool_call_id: "call_1",
      name: "web:search",
      status: "STARTED",
      parameters: [{ name: "query", value: "weather" }],
      timestamp: 1_700_000_000.5,
    }
    const text = `event: tool_status\ndata: ${JSON.stringify(status)}\n\n${sseBody([chatChunk({ content: "sunny" })])}`
    const { body } = testBody(reads(text))
    const { items, error } = await collect(decodeToolAssistedChatStream(body))
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((e) => e._tag),
      ["ToolStatus", "Chunk"],
    )
    const first = items[0]
    assert.ok(first?._tag === "ToolStatus" && first.status.name === "web:search")
  })

  it("throws ApiError for an error inside a 200 stream", async () => {
    const { body } = testBody(reads('data: {"error":{"message":"overloaded","type":"server_error"}}\n\n'))
    const { error } = await collect(decodeChatCompletionStream(body))
    assert.ok(error instanceof ApiError)
    assert.equal(error.retryable, true)
  })
})
