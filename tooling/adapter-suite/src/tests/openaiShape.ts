import assert from "node:assert/strict"
import { ApiError } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { chatRequest, completionRequest } from "@friendli-stream/test-harness/fixtures"
import { MODEL, TOKEN } from "../mock.ts"
import { openaiStreamingExample } from "../programs/openaiStreaming.ts"
import { type Context, lastApiRequest } from "../support.ts"

export const openaiShapeTests = (c: Context): void =>
  describe("a program written for the openai package", () => {
    it("runs the openai SDK's streaming example, changed in its import and constructor, against the mock", async () => {
      let printed = ""
      await openaiStreamingExample({
        createClient: c.adapter.createClient,
        apiKey: TOKEN,
        baseURL: `${c.served().url}/serverless/v1`,
        model: MODEL,
        stdout: { write: (text: string) => (printed += text) },
      })
      const record = await c.mock().waitForSettled((await lastApiRequest(c.mock())).id)
      assert.equal(record.outcome, "completed")
      assert.equal(record.headers.authorization, `Bearer ${TOKEN}`)
      assert.equal(record.path, "/serverless/v1/chat/completions")
      const expected = await c
        .client()
        .chat.stream({ model: MODEL, messages: [{ role: "user", content: "Say this is a test" }] })
        .finalCompletion()
      assert.ok(printed.length > 0, "the program printed nothing")
      assert.equal(printed, expected.choices[0]?.message.content)
    })

    it("streams from completions.create({ stream: true }) and answers without stream with the whole completion", async () => {
      const client = c.client()
      const request = completionRequest("The same prompt")
      let streamed = ""
      for await (const chunk of client.completions.create({ ...request, stream: true })) {
        streamed += chunk.choices[0]?.text ?? ""
      }
      const whole = await client.completions.create(request)
      assert.equal(streamed, whole.choices[0]?.text)
    })

    it("ends chat.completions.create({ stream: true }) in a typed error after the chunks before it", async () => {
      await c.mock().queueFaults("error:2")
      const stream = c.client({ maxRetries: 0 }).chat.completions.create({ ...chatRequest("Hi"), stream: true })
      let chunks = 0
      const error = await (async () => {
        try {
          for await (const _ of stream) chunks++
        } catch (e) {
          return e
        }
        return undefined
      })()
      assert.ok(error instanceof ApiError, String(error))
      assert.equal(chunks, 2)
    })
  })
