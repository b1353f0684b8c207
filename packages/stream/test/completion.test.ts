import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import {
  ApiError,
  ChunkDecodeError,
  type CompatibleOptions,
  CompletionStream,
  type DecodeOptions,
  decodeJsonEvents,
  SseError,
  StreamError,
  StreamTruncated,
} from "../src/index.ts"
import { completionChunk, pieceStream, reads, runAll, sseBody, testBody } from "./support.ts"

// Typed as compatible chunks, the wider of the two shapes, whatever the options say.
const decode = (text: string, options?: DecodeOptions) =>
  runAll(CompletionStream.decode(pieceStream(reads(text)), { ...options } as CompatibleOptions))

const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }

describe("CompletionStream.decode", () => {
  it("decodes chunks until data: [DONE]", async () => {
    const { items, error } = await decode(
      sseBody([completionChunk("Hel", { token: 1 }), completionChunk("lo", { token: 2 })]),
    )
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((c) => c.choices[0]?.text),
      ["Hel", "lo"],
    )
  })

  it('delivers Friendli\'s "null" finish_reason as null', async () => {
    const { items } = await decode(sseBody([completionChunk("a"), completionChunk("", { finish: "stop" })]))
    assert.deepEqual(
      items.map((c) => c.choices[0]?.finish_reason),
      [null, "stop"],
    )
  })

  it("delivers a usage-only chunk with empty choices", async () => {
    const last = { ...completionChunk("x"), choices: [], usage }
    const { items, error } = await decode(sseBody([completionChunk("x"), last]))
    assert.equal(error, undefined)
    assert.deepEqual(items[1]?.choices, [])
    assert.deepEqual(items[1]?.usage, usage)
  })

  it("ignores anything after [DONE] and releases the body", async () => {
    const { body, state } = testBody(reads(`${sseBody([completionChunk("a")])}data: {not json\n\n`, "data: more\n\n"))
    const { items, error } = await runAll(CompletionStream.fromReadableStream(body))
    assert.equal(error, undefined)
    assert.equal(items.length, 1)
    assert.equal(state.cancelled, true)
  })

  it("stops pulling the upstream stream after [DONE]", async () => {
    let pulled = 0
    const upstream = pieceStream(reads(sseBody([completionChunk("a")]), "data: x\n\n", "data: y\n\n")).pipe(
      Stream.map((piece) => {
        pulled++
        return piece
      }),
    )
    const { items, error } = await runAll(CompletionStream.decode(upstream))
    assert.equal(error, undefined)
    assert.equal(items.length, 1)
    assert.ok(pulled <= 2)
  })

  it("delivers every whole chunk, then fails with StreamTruncated when [DONE] never comes", async () => {
    const { items, error } = await decode(sseBody([completionChunk("a"), completionChunk("b")], { done: false }))
    assert.equal(items.length, 2)
    assert.ok(error instanceof StreamTruncated)
    assert.equal(error.midEvent, false)
    assert.equal(error.eventsDelivered, 2)
    assert.match(error.message, /requireDone/)
  })

  it("fails with StreamTruncated when the body ends in the middle of an event", async () => {
    const text = sseBody([completionChunk("a"), completionChunk("b")], { done: false })
    const { items, error } = await decode(text.slice(0, -5), { requireDone: false })
    assert.equal(items.length, 1)
    assert.ok(error instanceof StreamTruncated)
    assert.equal(error.midEvent, true)
  })

  it("accepts a whole data: [DONE] line that lacks the blank line after it", async () => {
    const { items, error } = await decode(sseBody([completionChunk("a")]).slice(0, -1))
    assert.equal(error, undefined)
    assert.equal(items.length, 1)
  })

  it("accepts a clean end at an event boundary with requireDone: false", async () => {
    const { items, error } = await decode(sseBody([completionChunk("a")], { done: false }), { requireDone: false })
    assert.equal(error, undefined)
    assert.equal(items.length, 1)
  })

  it("fails with ApiError on a JSON object with an error member", async () => {
    const err = { error: { message: "Rate limit reached", type: "rate_limit_error", code: 429 } }
    const { items, error } = await decode(sseBody([completionChunk("a"), err]))
    assert.equal(items.length, 1)
    assert.ok(error instanceof ApiError)
    assert.equal(error.type, "rate_limit_error")
    assert.equal(error.code, 429)
    assert.equal(error.retryable, true)
    assert.equal(error.eventIndex, 1)
    assert.match(error.message, /Rate limit reached/)
  })

  it("fails with ApiError on an event named error, retryable or not", async () => {
    const bad = await decode(
      'event: error\ndata: {"error":{"message":"tool_use_failed","type":"invalid_request_error","status_code":400}}\n\n',
    )
    assert.ok(bad.error instanceof ApiError)
    assert.equal(bad.error.retryable, false)
    assert.equal(bad.error.code, 400)
    const text = await decode("event: error\ndata: upstream overloaded\n\n")
    assert.ok(text.error instanceof ApiError)
    assert.equal(text.error.retryable, true)
    assert.match(text.error.message, /upstream overloaded/)
  })

  it("fails with ApiError on an error event that carries no data", async () => {
    const { items, error } = await decode(`${sseBody([completionChunk("a")], { done: false })}event: error\n\n`)
    assert.equal(items.length, 1)
    assert.ok(error instanceof ApiError)
    assert.match(error.message, /without details/)
  })

  it("skips events whose data is empty, and a retry or id sent alone, delivering the chunks around them", async () => {
    const { items, error } = await decode(
      `retry: 500\n\ndata:\n\n${sseBody([completionChunk("a")], { done: false })}data\n\nid: 3\n\n${sseBody([completionChunk("b")])}`,
    )
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((c) => c.choices[0]?.text),
      ["a", "b"],
    )
    // Positions in errors count every event of the body, the empty ones too.
    const bad = await decode(`data:\n\n${sseBody([completionChunk("a")], { done: false })}data: {oops\n\n`)
    assert.ok(bad.error instanceof ChunkDecodeError)
    assert.equal(bad.error.eventIndex, 2)
  })

  it("fails with ChunkDecodeError MalformedJson, keeping the text cut short and the event's position", async () => {
    const junk = `{"id": ${"x".repeat(5000)}`
    const { items, error } = await decode(`${sseBody([completionChunk("a")], { done: false })}id: 9\ndata: ${junk}\n\n`)
    assert.equal(items.length, 1)
    assert.ok(error instanceof ChunkDecodeError)
    assert.equal(error.reason, "MalformedJson")
    assert.equal(error.eventIndex, 1)
    assert.equal(error.eventId, "9")
    assert.ok(error.text.length < 600)
    assert.ok(error.text.startsWith('{"id": xxx'))
  })

  it("fails at a malformed event even when more chunks and [DONE] follow it in the same read", async () => {
    const after = sseBody([completionChunk("c")])
    const { items, error } = await decode(`${sseBody([completionChunk("a")], { done: false })}data: {oops\n\n${after}`)
    assert.deepEqual(
      items.map((c) => c.choices[0]?.text),
      ["a"],
    )
    assert.ok(error instanceof ChunkDecodeError)
    assert.equal(error.eventIndex, 1)
  })

  it("delivers the chunks before an oversized line in the same read, then fails with EventTooLarge", async () => {
    const before = sseBody([completionChunk("a"), completionChunk("b")], { done: false })
    const { items, error } = await decode(`${before}data: ${"x".repeat(4096)}\n\n`, { maxEventBytes: 1024 })
    assert.deepEqual(
      items.map((c) => c.choices[0]?.text),
      ["a", "b"],
    )
    assert.ok(error instanceof SseError)
    assert.equal(error.reason, "EventTooLarge")
  })

  it("fails with ChunkDecodeError SchemaMismatch, explaining what was wrong", async () => {
    const wrong = { ...completionChunk("a"), created: "yesterday" }
    const { error } = await decode(sseBody([wrong]))
    assert.ok(error instanceof ChunkDecodeError)
    assert.equal(error.reason, "SchemaMismatch")
    assert.match(error.explanation, /created/)
    assert.match(error.message, /compatible/)
  })

  it("accepts lenient OpenAI-compatible chunks in compatible mode", async () => {
    const lenient = [
      { id: "", object: "", created: 0, model: "", choices: [{ index: 0, text: "a", finish_reason: "" }], extra: 1 },
      {
        id: "",
        created: 0,
        choices: [{ index: 0, text: "b" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
      { choices: [{ index: 0, text: "", finish_reason: "null" }] },
      { choices: [{ index: 0, text: "", finish_reason: "eos_token" }], usage: null },
    ]
    const strict = await decode(sseBody(lenient))
    assert.ok(strict.error instanceof ChunkDecodeError)
    const { items, error } = await decode(sseBody(lenient), { validation: "compatible" })
    assert.equal(error, undefined)
    assert.deepEqual(
      items.map((c) => c.choices[0]?.finish_reason),
      [null, undefined, null, "eos_token"],
    )
  })

  it("shares one base class and a tag across every failure", async () => {
    const failures = [
      (await decode(sseBody([], { done: false }))).error,
      (await decode("data: {\n\n")).error,
      (await decode('data: {"error":"x"}\n\n')).error,
    ]
    for (const f of failures) {
      assert.ok(f instanceof StreamError)
      assert.ok(f instanceof Error)
      assert.equal(typeof f._tag, "string")
      assert.equal(f.name, f._tag)
    }
  })
})

describe("decodeJsonEvents", () => {
  it("decodes any JSON events with a guard and a schema", async () => {
    const Tick = Schema.Struct({ n: Schema.Number })
    const { items, error } = await runAll(
      pieceStream(reads('data: {"n":1}\n\ndata: {"n":2}\n\ndata: [DONE]\n\n')).pipe(
        decodeJsonEvents({ guard: Schema.is(Tick), schema: Tick }),
      ),
    )
    assert.equal(error, undefined)
    assert.deepEqual(items, [{ n: 1 }, { n: 2 }])
  })

  it("takes the guard and the schema as two arguments too", async () => {
    const Tick = Schema.Struct({ n: Schema.Number })
    const { items, error } = await runAll(
      pieceStream(reads('data: {"n":1}\n\ndata: {"n":"x"}\n\n')).pipe(decodeJsonEvents(Schema.is(Tick), Tick)),
    )
    assert.deepEqual(items, [{ n: 1 }])
    assert.ok(error instanceof ChunkDecodeError)
    assert.equal(error.reason, "SchemaMismatch")
  })
})
