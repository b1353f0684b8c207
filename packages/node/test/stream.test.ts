import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { decodeCompletionStream, type ToolAssistedChatStream } from "../src/index.ts"
import { chatRequest, collect, completionRequest, type Harness, MODEL, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

describe("streaming on Node over a real socket", () => {
  it("streams a completion to its end, with usage on the last chunk", async () => {
    const client = h.client()
    const { items, error } = await collect(
      client.completions.stream(completionRequest("Hello", { stream_options: { include_usage: true } })),
    )
    assert.equal(error, undefined)
    assert.ok(items.length > 2)
    const last = items.at(-1)!
    assert.deepEqual(last.choices, [])
    assert.ok(last.usage != null && last.usage.total_tokens > 0)
    assert.equal(h.mock.lastRequest()?.outcome, "completed")
    assert.equal(h.mock.lastRequest()?.headers.authorization, "Bearer test-token")
  })

  it("streams a chat completion and folds it into the final completion with usage", async () => {
    const client = h.client()
    const completion = await client.chat
      .stream(chatRequest("Hi", { stream_options: { include_usage: true } }))
      .finalCompletion()
    assert.equal(completion.object, "chat.completion")
    assert.equal(completion.model, MODEL)
    assert.ok((completion.choices[0]?.message.content ?? "").length > 0)
    assert.ok(completion.usage !== null && (completion.usage.completion_tokens ?? 0) > 0)
  })

  it("accumulates a completion stream into what the non-streamed request answers", async () => {
    const client = h.client()
    const request = completionRequest("The same prompt", { stream_options: { include_usage: true } })
    const streamed = await client.completions.stream(request).finalCompletion()
    const whole = await client.completions.create(request)
    assert.equal(streamed.choices.length, whole.choices.length)
    assert.equal(streamed.choices[0]?.text, whole.choices[0]?.text)
    assert.equal(streamed.choices[0]?.finish_reason, whole.choices[0]?.finish_reason)
    assert.deepEqual(streamed.choices[0]?.tokens, whole.choices[0]?.tokens)
    assert.deepEqual(streamed.usage, whole.usage)
  })

  it("accumulates a chat stream into what the non-streamed request answers", async () => {
    const client = h.client()
    const request = chatRequest("The same question", { n: 2, stream_options: { include_usage: true } })
    const streamed = await client.chat.stream(request).finalCompletion()
    const whole = await client.chat.create(request)
    assert.deepEqual(
      streamed.choices.map((c) => [c.index, c.message.content, c.finish_reason]),
      whole.choices.map((c) => [c.index, c.message.content, c.finish_reason]),
    )
    assert.deepEqual(streamed.usage, whole.usage)
  })

  it("resolves finalCompletion() asked for during and after a for await over the same stream", async () => {
    const client = h.client()
    const stream = client.completions.stream(completionRequest("Both at once"))
    let during: Promise<unknown> | undefined
    let text = ""
    for await (const chunk of stream) {
      during ??= stream.finalCompletion()
      text += chunk.choices[0]?.text ?? ""
    }
    const after = await stream.finalCompletion()
    assert.equal(after.choices[0]?.text, text)
    assert.equal(await during, after)
  })

  it("streams tool-assisted chat with tool statuses kept apart from chunks", async () => {
    const client = h.client()
    const { items, error } = await collect(
      client.toolAssistedChat.stream({
        ...chatRequest("What is 2+2?"),
        tools: [{ type: "math:calculator" }],
      }),
    )
    assert.equal(error, undefined)
    const tags = new Set(items.map((e: ToolAssistedChatStream.ToolAssistedChatEvent) => e._tag))
    assert.ok(tags.has("Chunk"))
  })

  it("re-encodes a stream as server-sent events that decode to the same chunks", async () => {
    const client = h.client()
    const request = completionRequest("Re-encode me")
    const direct = (await collect(client.completions.stream(request))).items
    const body = client.completions.stream(request).toReadableStream()
    const { items: events } = await collect({
      [Symbol.asyncIterator]: () => {
        const reader = body.getReader()
        return { next: () => reader.read() as Promise<IteratorResult<Uint8Array>> }
      },
    })
    const text = Buffer.concat(events).toString("utf8")
    assert.ok(text.endsWith("data: [DONE]\n\n"))
    const decoded = await collect(decodeCompletionStream(new Response(text).body!))
    assert.equal(decoded.error, undefined)
    assert.deepEqual(
      decoded.items.map((c) => c.choices),
      direct.map((c) => c.choices),
    )
  })

  it("sends requests with the fetch passed as an option instead of undici", async () => {
    const urls: Array<string> = []
    const client = h.client({
      fetch: (input, init) => {
        urls.push(String(input))
        return fetch(input, init)
      },
    })
    const completion = await client.completions.stream(completionRequest("Through fetch")).finalCompletion()
    assert.ok((completion.choices[0]?.text ?? "").length > 0)
    assert.deepEqual(urls, [`${h.baseURL}/v1/completions`])
  })

  it("refuses a request that does not match the schema before sending it", async () => {
    const client = h.client()
    const before = h.mock.requests.length
    const { error } = await collect(client.completions.stream({ model: MODEL, prompt: "x", max_tokens: 0 }))
    assert.equal((error as { _tag?: string })._tag, "InvalidRequestError")
    assert.match((error as Error).message, /max_tokens/)
    assert.equal(h.mock.requests.length, before)
  })
})
