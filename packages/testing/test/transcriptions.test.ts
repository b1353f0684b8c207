// Audio transcriptions of the mock (multipart/form-data uploads), tokenize / detokenize and the model catalog.
import assert from "node:assert/strict"
import {
  ServerlessAudioTranscriptionSuccess,
  ServerlessModelListSuccess,
  StreamedAudioTranscriptionData,
} from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import { Schema } from "effect"
import { BASE, newMock, post, readStream, TOKEN } from "./helpers.ts"

const decodeData = Schema.decodeUnknownSync(StreamedAudioTranscriptionData, { errors: "all" })
const decodeResult = Schema.decodeUnknownSync(ServerlessAudioTranscriptionSuccess, { errors: "all" })
const decodeModels = Schema.decodeUnknownSync(ServerlessModelListSuccess, { errors: "all" })

const PATHS = ["/serverless/v1/audio/transcriptions", "/dedicated/v1/audio/transcriptions", "/v1/audio/transcriptions"]

const audio = (bytes = 64_000, fill = 7): Blob => new Blob([new Uint8Array(bytes).fill(fill)], { type: "audio/wav" })

const upload = (fields: Record<string, string | Blob>, path = PATHS[0]!, fault?: string): Request => {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === "string") form.set(k, v)
    else form.set(k, v, "speech.wav")
  }
  return new Request(`${BASE}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, ...(fault ? { "x-mock-fault": fault } : {}) },
    body: form,
  })
}

describe("audio transcriptions", () => {
  it("streams transcript.text.delta, then transcript.text.done with the text and usage, then [DONE], on every deployment", async () => {
    const mock = newMock()
    for (const path of PATHS) {
      const res = await mock.fetch(upload({ model: "whisper", file: audio(), stream: "true" }, path))
      assert.equal(res.status, 200, path)
      const { chunks, events, done } = await readStream(res)
      assert.equal(done, true)
      assert.ok(
        events.every((e) => e.event === undefined),
        "no event: lines, as the API sends them",
      )
      for (const c of chunks) decodeData(c)
      const deltas = chunks.slice(0, -1)
      assert.ok(deltas.length > 1 && deltas.every((c) => c.type === "transcript.text.delta"))
      const last = chunks.at(-1) as { type: string; text: string; usage: { input_audio_length_ms: number } }
      assert.equal(last.type, "transcript.text.done")
      assert.equal(last.text, deltas.map((c) => c.delta).join(""))
      assert.equal(last.usage.input_audio_length_ms, 2000)
    }
  })

  it("answers the same transcript without stream; the transcript depends on the audio only", async () => {
    const mock = newMock()
    const { chunks } = await readStream(await mock.fetch(upload({ model: "w", file: audio(), stream: "true" })))
    const whole = (await (await mock.fetch(upload({ model: "w", file: audio(), language: "en" }))).json()) as {
      text: string
    }
    decodeResult(whole)
    assert.equal(whole.text, (chunks.at(-1) as { text: string }).text)
    const other = (await (await mock.fetch(upload({ model: "w", file: audio(64_000, 9) }))).json()) as { text: string }
    assert.notEqual(other.text, whole.text)
  })

  it("records the form's fields, the file as its name and size", async () => {
    const mock = newMock()
    await (await mock.fetch(upload({ model: "w", file: audio(3200), temperature: "0.2", stream: "false" }))).text()
    assert.deepEqual(mock.lastRequest()!.body, {
      model: "w",
      file: "<file speech.wav, 3200 bytes>",
      temperature: 0.2,
      stream: false,
    })
  })

  it("applies the stream faults: truncate leaves out the done event and [DONE], error sends event: error", async () => {
    const mock = newMock()
    const cut = await readStream(
      await mock.fetch(upload({ model: "w", file: audio(), stream: "true" }, PATHS[0], "truncate:2")),
    )
    assert.equal(cut.chunks.length, 2)
    assert.equal(cut.done, false)
    const failed = await readStream(
      await mock.fetch(upload({ model: "w", file: audio(), stream: "true" }, PATHS[0], "error:1")),
    )
    assert.equal(failed.events.at(-1)!.event, "error")
    assert.equal((failed.chunks.at(-1) as { error: { code: string } }).error.code, "mock_stream_error")
  })

  it("answers 422 for a JSON body, a missing file, a text field as the file, and an empty file", async () => {
    const mock = newMock()
    const json = await post(mock, PATHS[0]!, { model: "w", file: "x" })
    assert.equal(json.status, 422)
    assert.match(await json.text(), /multipart\/form-data/)
    for (const [fields, needle] of [
      [{ model: "w" }, "file"],
      [{ model: "w", file: "not a file" }, "uploaded file"],
      [{ model: "w", file: audio(0) }, "empty"],
      [{ file: audio() }, "model"],
    ] as const) {
      const res = await mock.fetch(upload(fields as Record<string, string | Blob>))
      assert.equal(res.status, 422, JSON.stringify(Object.keys(fields)))
      assert.match(await res.text(), new RegExp(needle))
    }
  })
})

describe("tokenize, detokenize and the model catalog", () => {
  it("detokenizes what it tokenized back to the same text, on every deployment", async () => {
    const mock = newMock()
    for (const prefix of ["/serverless", "/dedicated", ""]) {
      const text = "Hello there, café 東京! Quite a zyzzyva."
      const tokens = (
        (await (await post(mock, `${prefix}/v1/tokenize`, { model: "m", prompt: text })).json()) as {
          tokens: Array<number>
        }
      ).tokens
      assert.ok(tokens.length >= 8 && tokens.every(Number.isInteger))
      const back = (await (await post(mock, `${prefix}/v1/detokenize`, { model: "m", tokens })).json()) as {
        text: string
      }
      assert.equal(back.text, text)
    }
  })

  it("answers 422 naming the token for an id it never made, and for a missing prompt", async () => {
    const mock = newMock()
    const res = await post(mock, "/serverless/v1/detokenize", { model: "m", tokens: [1000, 3] })
    assert.equal(res.status, 422)
    const detail = ((await res.json()) as { detail: Array<{ loc: Array<string | number>; msg: string }> }).detail
    assert.deepEqual(detail[0]!.loc, ["body", "tokens", 1])
    assert.match(detail[0]!.msg, /Unknown token id 3/)
    assert.equal((await post(mock, "/serverless/v1/tokenize", { model: "m" })).status, 422)
  })

  it("lists the serverless models (the mock's models option, or a default list) without a token; GET only", async () => {
    const mine = newMock({ models: ["a-model", "b-model"], clock: () => 1_700_000_000_000 })
    const res = await mine.fetch(new Request(`${BASE}/serverless/v1/models`))
    assert.equal(res.status, 200)
    const list = decodeModels(await res.json())
    assert.deepEqual(
      list.data.map((m) => m.id),
      ["a-model", "b-model"],
    )
    assert.equal(list.data[0]!.created, 1_700_000_000)
    const any = (await (await newMock().fetch(new Request(`${BASE}/serverless/v1/models`))).json()) as {
      data: unknown[]
    }
    assert.ok(any.data.length > 0)
    const wrong = await mine.fetch(new Request(`${BASE}/serverless/v1/models`, { method: "POST", body: "{}" }))
    assert.equal(wrong.status, 405)
    assert.equal(wrong.headers.get("allow"), "GET")
  })
})
