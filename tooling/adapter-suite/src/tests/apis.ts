import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { MODEL } from "../mock.ts"
import { type Context, lastApiRequest } from "../support.ts"

/** The Responses, Messages and audio APIs and the small calls beside them, non-streamed, over a real socket. */
export const apiTests = (c: Context): void =>
  describe("Responses, Messages, transcriptions, tokenize and models over a real socket", () => {
    it("creates a whole response and a whole message", async () => {
      const client = c.client()
      const response = await client.responses.create({ model: MODEL, input: "Say hello", max_output_tokens: 12 })
      assert.equal(response.object, "response")
      const message = response.output.find((item) => item.type === "message")
      assert.ok(message !== undefined && message.type === "message")
      assert.ok((message.content[0]?.text ?? "").length > 0)
      const reply = await client.messages.create({
        model: MODEL,
        max_tokens: 12,
        messages: [{ role: "user", content: "Say hello" }],
      })
      assert.equal(reply.type, "message")
      assert.equal(reply.content[0]?.type, "text")
      assert.ok(reply.usage.output_tokens > 0)
    })

    it("uploads audio as multipart/form-data and gets its transcript; the same bytes give the same text", async () => {
      const client = c.client()
      const bytes = new Uint8Array(32_000).map((_, i) => i % 251)
      const fromBlob = await client.audio.transcriptions.create({
        model: MODEL,
        file: new Blob([bytes], { type: "audio/wav" }),
        filename: "speech.wav",
        language: "en",
      })
      const record = await lastApiRequest(c.mock())
      assert.match(record.headers["content-type"] ?? "", /^multipart\/form-data; boundary=/)
      assert.deepEqual(record.body, {
        model: MODEL,
        language: "en",
        stream: false,
        file: "<file speech.wav, 32000 bytes>",
      })
      assert.ok(fromBlob.text.length > 0)
      assert.equal(fromBlob.usage.input_audio_length_ms, 1000)
      const fromBytes = await client.audio.transcriptions.create({ model: MODEL, file: bytes })
      assert.equal(fromBytes.text, fromBlob.text)
    })

    it("tokenizes and detokenizes back to the same text, and lists the serverless models", async () => {
      const client = c.client()
      const text = "Hello there, café!"
      const { tokens } = await client.tokenize({ model: MODEL, prompt: text })
      assert.ok(tokens.length > 2)
      assert.equal((await client.detokenize({ model: MODEL, tokens })).text, text)
      const models = await client.models.list()
      assert.deepEqual(
        models.data.map((m) => m.id),
        [MODEL],
      )
    })
  })
