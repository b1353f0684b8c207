// friendli.transcriptionModel through the real `ai` package's `transcribe` against the mock over HTTP: the text and
// usage the mock answered, the form fields it received, warnings for what Friendli cannot do, and HTTP errors as
// APICallErrors the AI SDK retries itself.
import assert from "node:assert/strict"
import { APICallError, InvalidArgumentError } from "@ai-sdk/provider"
import { RateLimitError } from "@friendli-stream/client"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { transcribe } from "ai"
import { type Harness, startMock, TOKEN } from "./support.ts"

const WHISPER = "whisper-large-v3"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

/** A 16 kHz 16-bit mono WAV of `ms` milliseconds: a RIFF header, then a tone. */
const wav = (ms: number): Uint8Array => {
  const samples = 16 * ms
  const bytes = new Uint8Array(44 + samples * 2)
  const view = new DataView(bytes.buffer)
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i)
  }
  ascii(0, "RIFF")
  view.setUint32(4, 36 + samples * 2, true)
  ascii(8, "WAVEfmt ")
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, 1, true)
  view.setUint32(24, 16000, true)
  view.setUint32(28, 32000, true)
  view.setUint16(32, 2, true)
  view.setUint16(34, 16, true)
  ascii(36, "data")
  view.setUint32(40, samples * 2, true)
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(8000 * Math.sin(i / 7)), true)
  return bytes
}

/** What the mock answers for these bytes, asked without the provider (a plain multipart POST). */
const mockAnswer = async (bytes: Uint8Array, filename: string) => {
  const form = new FormData()
  form.set("model", WHISPER)
  form.set("file", new Blob([new Uint8Array(bytes)]), filename)
  const response = await fetch(`${h.server.url}/serverless/v1/audio/transcriptions`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    body: form,
  })
  assert.equal(response.status, 200, await response.clone().text())
  return (await response.json()) as { text: string; usage: { input_audio_length_ms: number } & Record<string, unknown> }
}

describe("transcribe", () => {
  it("returns the text and usage the mock answered, its duration, and sends Friendli's fields as the form", async () => {
    const audio = wav(2000)
    const expected = await mockAnswer(audio, "audio.wav")
    const friendli = h.provider()
    const result = await transcribe({
      model: friendli.transcriptionModel(WHISPER),
      audio,
      providerOptions: {
        friendli: {
          language: "en",
          temperature: 0.2,
          chunkingStrategy: { type: "server_vad", threshold: 0.6, silence_duration_ms: 300 },
        },
      },
    })
    assert.ok(expected.text.length > 0)
    assert.equal(result.text, expected.text)
    assert.deepEqual(result.segments, [])
    assert.equal(result.language, "en")
    assert.equal(result.durationInSeconds, expected.usage.input_audio_length_ms / 1000)
    assert.equal(result.durationInSeconds, Math.round(audio.byteLength / 32) / 1000, "32 bytes a ms")
    assert.deepEqual(result.warnings, [])
    assert.deepEqual(result.providerMetadata.friendli?.usage, expected.usage)
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/serverless/v1/audio/transcriptions")
    assert.equal(record.headers.authorization, `Bearer ${TOKEN}`)
    assert.match(record.headers["content-type"] ?? "", /^multipart\/form-data/)
    const body = record.body as Record<string, unknown>
    assert.equal(body.model, WHISPER)
    assert.equal(body.language, "en")
    assert.equal(Number(body.temperature), 0.2)
    // The mock reads the field's JSON text back into an object.
    assert.deepEqual(body.chunking_strategy, {
      type: "server_vad",
      threshold: 0.6,
      silence_duration_ms: 300,
    })
    assert.equal(body.file, `<file audio.wav, ${audio.byteLength} bytes>`)
    assert.notEqual(body.stream, true, "a whole answer was asked for")
    const [response] = result.responses
    assert.equal(response?.modelId, WHISPER)
    assert.equal(response?.headers?.["x-mock-request-id"], record.id)
  })

  it("base64 audio uploads the same bytes, and the upload's name follows the media type", async () => {
    // An MPEG audio frame header (0xFFFB: MPEG-1 layer III), which the AI SDK reads as audio/mpeg.
    const mp3 = new Uint8Array([0xff, 0xfb, 0x90, 0x64, ...wav(300).subarray(44)])
    const expected = await mockAnswer(mp3, "audio.mp3")
    const base64 = btoa(String.fromCharCode(...mp3))
    const result = await transcribe({ model: h.provider().transcription(WHISPER), audio: base64 })
    assert.equal(result.text, expected.text)
    assert.equal(
      (h.mock.lastRequest()!.body as Record<string, unknown>).file,
      `<file audio.mp3, ${mp3.byteLength} bytes>`,
    )
    assert.equal(result.language, undefined, "no language asked, and Friendli does not report one")
  })

  it("warns that Friendli returns no timings when timestamps are asked for, and about unknown options", async () => {
    const result = await transcribe({
      model: h.provider().transcriptionModel(WHISPER),
      audio: wav(500),
      timestampGranularities: ["word", "segment"],
      providerOptions: { friendli: { prompt: "names" } },
    })
    assert.ok(result.text.length > 0)
    assert.deepEqual(
      result.warnings.map((w) => ("feature" in w ? w.feature : w.type)),
      ["other", "timestampGranularities"],
      JSON.stringify(result.warnings),
    )
    assert.match(JSON.stringify(result.warnings), /providerOptions\.friendli\.prompt/)
  })

  it("an option of the wrong type fails with InvalidArgumentError naming it, and nothing is sent", async () => {
    const before = h.mock.requests.length
    const error = await transcribe({
      model: h.provider().transcriptionModel(WHISPER),
      audio: wav(100),
      providerOptions: { friendli: { chunkingStrategy: { type: "server_vad", threshold: "high" } } },
    }).then(
      () => assert.fail("must fail"),
      (e: unknown) => e,
    )
    assert.ok(InvalidArgumentError.isInstance(error), String(error))
    assert.equal(error.argument, "providerOptions.friendli.chunkingStrategy")
    assert.match(error.message, /"high"/)
    assert.equal(h.mock.requests.length, before)
  })
})

describe("transcription errors", () => {
  it("a 429 is an APICallError with the status, Retry-After and isRetryable from our RateLimitError", async () => {
    const before = h.mock.requests.length
    const error = await transcribe({
      model: h.provider("rate-limit:0").transcriptionModel(WHISPER),
      audio: wav(100),
      maxRetries: 0,
    }).then(
      () => assert.fail("a 429 must fail"),
      (e: unknown) => e,
    )
    assert.ok(APICallError.isInstance(error), String(error))
    assert.equal(error.statusCode, 429)
    assert.equal(error.isRetryable, true)
    assert.equal(error.responseHeaders?.["retry-after"], "0")
    assert.ok(error.cause instanceof RateLimitError, String(error.cause))
    assert.equal(error.url, `${h.server.url}/_fault/rate-limit:0/serverless/v1/audio/transcriptions`)
    assert.equal(h.mock.requests.length - before, 1, "our client made one attempt only")
  })

  it("the AI SDK's maxRetries is the only retry loop: a 429, one retry with the same upload, then the text", async () => {
    const audio = wav(400)
    const expected = await mockAnswer(audio, "audio.wav")
    const before = h.mock.requests.length
    h.mock.queueFaults("rate-limit:0")
    const result = await transcribe({ model: h.provider().transcriptionModel(WHISPER), audio, maxRetries: 1 })
    const records = h.mock.requests.slice(before)
    assert.deepEqual(
      records.map((r) => r.status),
      [429, 200],
    )
    assert.equal(result.text, expected.text)
    assert.equal((records[0]!.body as Record<string, unknown>).file, `<file audio.wav, ${audio.byteLength} bytes>`)
  })

  it("a 422 is not retried, and its body is the APICallError's responseBody", async () => {
    const before = h.mock.requests.length
    const error = await transcribe({
      model: h.provider("status:422").transcriptionModel(WHISPER),
      audio: wav(100),
      maxRetries: 2,
    }).then(
      () => assert.fail("a 422 must fail"),
      (e: unknown) => e,
    )
    assert.ok(APICallError.isInstance(error), String(error))
    assert.equal(error.statusCode, 422)
    assert.equal(error.isRetryable, false)
    assert.match(error.responseBody ?? "", /error|detail/)
    assert.equal(h.mock.requests.length - before, 1)
  })

  it("aborting a transcription closes the connection and rejects with the abort reason", async () => {
    const controller = new AbortController()
    const pending = transcribe({
      model: h.provider("delay-first:5000").transcriptionModel(WHISPER),
      audio: wav(100),
      abortSignal: controller.signal,
      maxRetries: 0,
    })
    const record = await h.mock.waitForRequest((r) => r.faults.includes("delay-first"))
    controller.abort(new Error("stop"))
    await assert.rejects(pending, /stop/)
    const settled = await h.mock.waitForDisconnect(record.id, { timeoutMs: 3000 })
    assert.equal(settled.outcome, "disconnected")
  })
})
