// The non-streamed calls beside the streams: Responses, Messages, audio transcriptions (a multipart upload),
// tokenize, detokenize and the model list, against a fake server (a `fetch` function; no socket).
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { InvalidRequestError, InvalidResponseError, NotFoundError } from "../src/index.ts"
import { type Answer, BASE, fakeServerClient } from "./client-support.ts"

const reply =
  (body: unknown, status = 200): Answer =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const RESPONSE = {
  id: "resp_1",
  object: "response",
  created_at: 1_700_000_000,
  status: "completed",
  model: "m",
  output: [
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Hi" }],
    },
  ],
  usage: { input_tokens: 3, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, total_tokens: 4 },
}

const MESSAGE = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "m",
  content: [{ type: "text", text: "Hi" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 3, output_tokens: 1 },
}

const TRANSCRIPT = {
  text: "Hello world.",
  usage: {
    type: "tokens",
    input_tokens: 20,
    output_tokens: 3,
    total_tokens: 23,
    input_audio_length_ms: 2000,
    processed_audio_length_ms: 2000,
  },
}

const rejects = async (promise: Promise<unknown>, Class: new (...args: never) => Error): Promise<Error> => {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof Class, `expected ${Class.name}, got ${String(error)}`)
    return error
  }
  assert.fail(`expected ${Class.name}, but it succeeded`)
}

describe("responses.create and messages.create", () => {
  it("posts the request with stream: false to /v1/responses and returns the checked response", async () => {
    const { client, seen } = fakeServerClient([reply(RESPONSE)])
    const response = await client.responses.create({ model: "m", input: "Hi", max_output_tokens: 5 })
    assert.deepEqual(response, RESPONSE)
    assert.equal(seen[0]!.method, "POST")
    assert.equal(seen[0]!.url, `${BASE}/v1/responses`)
    assert.deepEqual(seen[0]!.json, { model: "m", input: "Hi", max_output_tokens: 5, stream: false })
  })

  it("posts to /v1/messages and returns the message", async () => {
    const { client, seen } = fakeServerClient([reply(MESSAGE)])
    const message = await client.messages.create({
      model: "m",
      max_tokens: 8,
      messages: [{ role: "user", content: "Hi" }],
    })
    assert.deepEqual(message, MESSAGE)
    assert.equal(seen[0]!.url, `${BASE}/v1/messages`)
    assert.equal(seen[0]!.json!.stream, false)
  })

  it("refuses a request without model on serverless and dedicated (not sent), and sends it to a container", async () => {
    for (const deployment of ["serverless", "dedicated"] as const) {
      const { client, seen } = fakeServerClient([reply(RESPONSE)], { deployment })
      const error = await rejects(client.responses.create({ input: "Hi" }), InvalidRequestError)
      assert.match(error.message, /Responses request does not match the API schema/)
      assert.match(error.message, /model/)
      assert.equal(seen.length, 0)
    }
    const { client, seen } = fakeServerClient([reply(MESSAGE)], { deployment: "container" })
    await client.messages.create({ messages: [{ role: "user", content: "Hi" }] })
    assert.equal(seen.length, 1)
  })

  it("fails with InvalidResponseError naming the field when the response has the wrong shape", async () => {
    const { client } = fakeServerClient([reply({ ...RESPONSE, output: "nope" })])
    const error = await rejects(client.responses.create({ model: "m", input: "Hi" }), InvalidResponseError)
    assert.match(error.message, /output/)
  })
})

describe("audio.transcriptions.create", () => {
  it("uploads a Blob as multipart/form-data with the form's fields and stream=false", async () => {
    const { client, seen } = fakeServerClient([reply(TRANSCRIPT)])
    const audio = new Blob([new Uint8Array([1, 2, 3, 4])], { type: "audio/wav" })
    const result = await client.audio.transcriptions.create({
      model: "whisper",
      file: audio,
      language: "en",
      temperature: 0.2,
      chunking_strategy: { type: "server_vad", threshold: 0.4 },
    })
    assert.deepEqual(result, TRANSCRIPT)
    const s = seen[0]!
    assert.equal(s.url, `${BASE}/v1/audio/transcriptions`)
    assert.match(s.headers["content-type"]!, /^multipart\/form-data; boundary=/)
    const form = s.form!
    assert.equal(form.get("model"), "whisper")
    assert.equal(form.get("language"), "en")
    assert.equal(form.get("temperature"), "0.2")
    assert.equal(form.get("stream"), "false")
    assert.deepEqual(JSON.parse(form.get("chunking_strategy") as string), { type: "server_vad", threshold: 0.4 })
    const file = form.get("file") as File
    assert.equal(file.name, "audio")
    assert.deepEqual([...new Uint8Array(await file.arrayBuffer())], [1, 2, 3, 4])
  })

  it("uploads bytes (Uint8Array, ArrayBuffer) with the filename given, and a File with its own name", async () => {
    const { client, seen } = fakeServerClient([reply(TRANSCRIPT)])
    await client.audio.transcriptions.create({ model: "w", file: new Uint8Array([9, 8]), filename: "a.mp3" })
    await client.audio.transcriptions.create({ model: "w", file: new Uint8Array([7]).buffer })
    await client.audio.transcriptions.create({ model: "w", file: new File([new Uint8Array([5])], "speech.flac") })
    const files = seen.map((s) => s.form!.get("file") as File)
    assert.deepEqual(
      files.map((f) => f.name),
      ["a.mp3", "audio", "speech.flac"],
    )
    assert.deepEqual([...new Uint8Array(await files[0]!.arrayBuffer())], [9, 8])
    assert.deepEqual([...new Uint8Array(await files[1]!.arrayBuffer())], [7])
  })

  it("refuses (not sent) a file that is not a File, Blob or bytes, and a field its Schema refuses", async () => {
    const { client, seen } = fakeServerClient([reply(TRANSCRIPT)])
    const notFile = await rejects(
      client.audio.transcriptions.create({ model: "w", file: "speech.wav" as never }),
      InvalidRequestError,
    )
    assert.match(notFile.message, /file[\s\S]*Expected a File, a Blob, a Uint8Array or an ArrayBuffer, got string/)
    const badField = await rejects(
      client.audio.transcriptions.create({ model: "w", file: new Uint8Array([1]), temperature: "hot" as never }),
      InvalidRequestError,
    )
    assert.match(badField.message, /temperature/)
    const noModel = await rejects(
      client.audio.transcriptions.create({ file: new Uint8Array([1]) }),
      InvalidRequestError,
    )
    assert.match(noModel.message, /model/)
    assert.equal(seen.length, 0)
  })

  it("sends the same upload again when the first attempt answers 503", async () => {
    const { client, seen } = fakeServerClient([
      reply({ error: { message: "busy", type: "server_error" } }, 503),
      reply(TRANSCRIPT),
    ])
    const result = await client.audio.transcriptions.create({ model: "w", file: new Blob([new Uint8Array([1, 2, 3])]) })
    assert.equal(result.text, TRANSCRIPT.text)
    assert.equal(seen.length, 2)
    for (const s of seen) {
      assert.deepEqual([...new Uint8Array(await (s.form!.get("file") as File).arrayBuffer())], [1, 2, 3])
    }
  })
})

describe("tokenize, detokenize and models.list", () => {
  it("posts tokenize and detokenize without a stream field and returns their bodies", async () => {
    const { client, seen } = fakeServerClient([reply({ tokens: [1, 2, 3] }), reply({ text: "a b c" })])
    assert.deepEqual(await client.tokenize({ model: "m", prompt: "a b c" }), { tokens: [1, 2, 3] })
    assert.deepEqual(await client.detokenize({ model: "m", tokens: [1, 2, 3] }), { text: "a b c" })
    assert.deepEqual(
      seen.map((s) => [s.url, s.json]),
      [
        [`${BASE}/v1/tokenize`, { model: "m", prompt: "a b c" }],
        [`${BASE}/v1/detokenize`, { model: "m", tokens: [1, 2, 3] }],
      ],
    )
  })

  it("lists the models with a GET and no body; a 404 names the GET", async () => {
    const list = { data: [] }
    const { client, seen } = fakeServerClient([reply(list), reply({ detail: "Not Found" }, 404)])
    assert.deepEqual(await client.models.list(), list)
    assert.equal(seen[0]!.method, "GET")
    assert.equal(seen[0]!.url, `${BASE}/v1/models`)
    assert.equal(seen[0]!.json, undefined)
    const error = await rejects(client.models.list(), NotFoundError)
    assert.match(error.message, new RegExp(`^GET ${BASE}/v1/models answered 404`))
  })

  it("refuses models.list on a dedicated or container client, sending nothing", async () => {
    for (const deployment of ["dedicated", "container"] as const) {
      const { client, seen } = fakeServerClient([reply({ data: [] })], { deployment })
      const error = await rejects(client.models.list(), InvalidRequestError)
      assert.match(error.message, new RegExp(`serverless API; this client's deployment is ${deployment}`))
      assert.equal(seen.length, 0)
    }
  })
})
