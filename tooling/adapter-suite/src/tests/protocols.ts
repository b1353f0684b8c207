import assert from "node:assert/strict"
import { ApiError, StreamTruncated } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import { MODEL } from "../mock.ts"
import { type Context, lastApiRequest } from "../support.ts"

const responsesRequest = { model: MODEL, input: "Tell me about rivers", max_output_tokens: 16 }
const messagesRequest = { model: MODEL, max_tokens: 16, messages: [{ role: "user" as const, content: "Tell me" }] }
const audio = () => new Uint8Array(16_000).map((_, i) => (i * 7) % 256)

/** The Responses, Messages and transcription streams: whole, cut (StreamTruncated) and failed (ApiError). */
export const protocolTests = (c: Context): void =>
  describe("Responses, Messages and transcription streams over a real socket", () => {
    it("streams a whole Responses stream to its terminal event (response.incomplete at max_output_tokens), folded as create() answers", async () => {
      const client = c.client()
      const handle = client.responses.stream(responsesRequest)
      const { items, error } = await collect(handle)
      assert.equal(error, undefined)
      assert.equal(items[0]?.type, "response.created")
      assert.equal(items.at(-1)?.type, "response.incomplete", "max_output_tokens 16 cuts the mock's answer")
      const final = await handle.finalResponse()
      const whole = await client.responses.create(responsesRequest)
      const text = whole.output.flatMap((item) => (item.type === "message" ? item.content.map((p) => p.text) : []))
      assert.equal(final.output_text, text.join(""))
      assert.equal(final.status, "incomplete")
      assert.equal(final.incomplete_details?.reason, "max_output_tokens")
    })

    it("fails a cut Responses stream with StreamTruncated and response.failed with ApiError, after the events before", async () => {
      const client = c.client()
      await c.mock().queueFaults("truncate:4")
      const cut = await collect(client.responses.stream(responsesRequest))
      assert.equal(cut.items.length, 4)
      assert.ok(cut.error instanceof StreamTruncated, String(cut.error))
      await c.mock().queueFaults("error:3")
      const failed = await collect(client.responses.stream(responsesRequest))
      assert.equal(failed.items.length, 3)
      assert.ok(failed.error instanceof ApiError, String(failed.error))
      assert.match(failed.error.message, /Injected failure after 3 events/)
    })

    it("streams a whole Messages stream to message_stop, folded as create() answers", async () => {
      const client = c.client()
      const handle = client.messages.stream(messagesRequest)
      const { items, error } = await collect(handle)
      assert.equal(error, undefined)
      assert.equal(items[0]?.type, "message_start")
      assert.equal(items.at(-1)?.type, "message_stop")
      assert.ok(items.some((e) => e.type === "ping"))
      const final = await handle.finalMessage()
      const whole = await client.messages.create(messagesRequest)
      assert.deepEqual(
        final.content.map((b) => (b.type === "text" ? b.text : b.type)),
        whole.content.map((b) => (b.type === "text" ? b.text : b.type)),
      )
      assert.equal(final.stop_reason, whole.stop_reason)
    })

    it("fails a cut Messages stream with StreamTruncated and event: error with ApiError", async () => {
      const client = c.client()
      await c.mock().queueFaults("truncate:5")
      const cut = await collect(client.messages.stream(messagesRequest))
      assert.equal(cut.items.length, 5)
      assert.ok(cut.error instanceof StreamTruncated, String(cut.error))
      await c.mock().queueFaults("error:2")
      const failed = await collect(client.messages.stream(messagesRequest))
      assert.equal(failed.items.length, 2)
      assert.ok(failed.error instanceof ApiError, String(failed.error))
      assert.match(failed.error.message, /Overloaded/)
    })

    it("streams and creates on the dedicated and container paths (a container needs no model)", async () => {
      for (const [deployment, path] of [
        ["dedicated", "/dedicated"],
        ["container", ""],
      ] as const) {
        const client = c.client({ deployment, baseURL: `${c.served().url}${path}` })
        const model = deployment === "container" ? {} : { model: MODEL }
        const final = await client.responses.stream({ ...model, input: "Say hello" }).finalResponse()
        assert.ok(final.output_text.length > 0, deployment)
        const record = await lastApiRequest(c.mock())
        assert.equal(record.path, `${path}/v1/responses`)
        const message = await client.messages
          .stream({ ...model, max_tokens: 8, messages: [{ role: "user", content: "Hi" }] })
          .finalMessage()
        assert.equal(message.content[0]?.type, "text")
        const transcript = await client.audio.transcriptions.stream({ ...model, file: audio() }).finalTranscript()
        assert.ok(transcript.text.length > 0)
        assert.equal((await lastApiRequest(c.mock())).path, `${path}/v1/audio/transcriptions`)
        const { tokens } = await client.tokenize({ ...model, prompt: "Hello" })
        assert.equal((await client.detokenize({ ...model, tokens })).text, "Hello")
      }
    })

    it("uploads audio and streams its transcript to [DONE], folded as create() answers", async () => {
      const client = c.client()
      const handle = client.audio.transcriptions.stream({ model: MODEL, file: new Blob([audio()]) })
      const { items, error } = await collect(handle)
      assert.equal(error, undefined)
      assert.equal(items.at(-1)?.type, "transcript.text.done")
      const record = await lastApiRequest(c.mock())
      assert.equal((record.body as { stream: unknown }).stream, true)
      const final = await handle.finalTranscript()
      const whole = await client.audio.transcriptions.create({ model: MODEL, file: audio() })
      assert.equal(final.text, whole.text)
      assert.deepEqual(final.usage, whole.usage)
    })

    it("fails a cut transcript stream with StreamTruncated and an error event with ApiError", async () => {
      const client = c.client()
      await c.mock().queueFaults("truncate:3")
      const cut = await collect(client.audio.transcriptions.stream({ model: MODEL, file: audio() }))
      assert.equal(cut.items.length, 3)
      assert.ok(cut.error instanceof StreamTruncated, String(cut.error))
      await c.mock().queueFaults("error:2")
      const failed = await collect(client.audio.transcriptions.stream({ model: MODEL, file: audio() }))
      assert.equal(failed.items.length, 2)
      assert.ok(failed.error instanceof ApiError, String(failed.error))
    })
  })
