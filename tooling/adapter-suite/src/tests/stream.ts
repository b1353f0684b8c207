import assert from "node:assert/strict"
import { decodeCompletionStream, type ToolAssistedChatStream } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { chatRequest, collect, completionRequest, readBody } from "@friendli-stream/test-harness/fixtures"
import { MODEL, TOKEN } from "../mock.ts"
import { apiRequests, type Context, lastApiRequest } from "../support.ts"

export const streamTests = (c: Context): void =>
  describe("streaming over a real socket", () => {
    it("streams a completion to its end, with usage on the last chunk", async () => {
      const { items, error } = await collect(
        c.client().completions.stream(completionRequest("Hello", { stream_options: { include_usage: true } })),
      )
      assert.equal(error, undefined)
      assert.ok(items.length > 2)
      const last = items.at(-1)!
      assert.deepEqual(last.choices, [])
      assert.ok(last.usage != null && last.usage.total_tokens > 0)
      const record = await c.mock().waitForSettled((await lastApiRequest(c.mock())).id)
      assert.equal(record.outcome, "completed")
      assert.equal(record.headers.authorization, `Bearer ${TOKEN}`)
      assert.equal(items.length, record.events.filter((e) => e.type === "chunk" && e.data !== "[DONE]").length)
    })

    it("streams a chat completion and folds it into the final completion with usage", async () => {
      const completion = await c
        .client()
        .chat.stream(chatRequest("Hi", { stream_options: { include_usage: true } }))
        .finalCompletion()
      assert.equal(completion.object, "chat.completion")
      assert.equal(completion.model, MODEL)
      assert.ok((completion.choices[0]?.message.content ?? "").length > 0)
      assert.ok(completion.usage !== null && (completion.usage.completion_tokens ?? 0) > 0)
    })

    it("accumulates a completion stream into what the non-streamed request answers", async () => {
      const client = c.client()
      const request = completionRequest("The same prompt", { stream_options: { include_usage: true } })
      const streamed = await client.completions.stream(request).finalCompletion()
      const whole = await client.completions.create(request)
      assert.equal(streamed.choices.length, whole.choices.length)
      assert.equal(streamed.choices[0]?.text, whole.choices[0]?.text)
      assert.equal(streamed.choices[0]?.finish_reason, whole.choices[0]?.finish_reason)
      assert.deepEqual(streamed.choices[0]?.tokens, whole.choices[0]?.tokens)
      assert.deepEqual(streamed.usage, whole.usage)
    })

    it("accumulates a chat stream with two choices into what the non-streamed request answers", async () => {
      const client = c.client()
      const request = chatRequest("The same question", { n: 2, stream_options: { include_usage: true } })
      const streamed = await client.chat.stream(request).finalCompletion()
      const whole = await client.chat.create(request)
      assert.deepEqual(
        streamed.choices.map((x) => [x.index, x.message.content, x.finish_reason]),
        whole.choices.map((x) => [x.index, x.message.content, x.finish_reason]),
      )
      assert.deepEqual(streamed.usage, whole.usage)
    })

    it("resolves finalCompletion() asked for during and after a for await over the same stream", async () => {
      const stream = c.client().completions.stream(completionRequest("Both at once"))
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
      const { items, error } = await collect(
        c.client().toolAssistedChat.stream({ ...chatRequest("What is 2+2?"), tools: [{ type: "math:calculator" }] }),
      )
      assert.equal(error, undefined)
      const tags = new Set(items.map((e: ToolAssistedChatStream.ToolAssistedChatEvent) => e._tag))
      assert.ok(tags.has("Chunk"))
      assert.ok(tags.has("ToolStatus"))
    })

    it("re-encodes a stream as server-sent events that decode to the same chunks", async () => {
      const client = c.client()
      const request = completionRequest("Re-encode me")
      const direct = (await collect(client.completions.stream(request))).items
      const { text } = await readBody(
        client.completions.stream(request).toReadableStream() as ReadableStream<Uint8Array>,
      )
      assert.ok(text.startsWith("data: {"))
      assert.ok(text.endsWith("data: [DONE]\n\n"))
      const decoded = await collect(decodeCompletionStream(new Response(text).body!))
      assert.equal(decoded.error, undefined)
      assert.deepEqual(
        decoded.items.map((x) => x.choices),
        direct.map((x) => x.choices),
      )
    })

    it("refuses a request that does not match the schema before sending it", async () => {
      const before = (await apiRequests(c.mock())).length
      // (Friendli's description states no bound on max_tokens: a wrong type is what its Schema refuses)
      const request = { model: MODEL, prompt: "x", max_tokens: "twelve" as unknown as number }
      const { error } = await collect(c.client().completions.stream(request))
      assert.equal((error as { _tag?: string })._tag, "InvalidRequestError")
      assert.match((error as Error).message, /max_tokens/)
      assert.equal((await apiRequests(c.mock())).length, before)
    })

    it("sends the team header and the options' extra headers", async () => {
      await c.client({ team: "team-42", headers: { "x-extra": "yes" } }).completions.create(completionRequest())
      const record = await lastApiRequest(c.mock())
      assert.equal(record.headers["x-friendli-team"], "team-42")
      assert.equal(record.headers["x-extra"], "yes")
    })

    it("sends requests through the fetch given in the options", async () => {
      if (c.adapter.fetchOption === false) return
      const seen: Array<string> = []
      const fetch = ((input: string | URL | Request, init?: RequestInit) => {
        seen.push(input instanceof Request ? input.url : String(input))
        return globalThis.fetch(input, init)
      }) as typeof globalThis.fetch
      const completion = await c.client({ fetch }).completions.stream(completionRequest()).finalCompletion()
      assert.ok((completion.choices[0]?.text ?? "").length > 0)
      assert.deepEqual(seen, [`${c.baseURL()}/v1/completions`])
    })
  })
