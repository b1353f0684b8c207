import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import * as Schema from "effect/Schema"
import {
  ApiError,
  type DecodeOptions,
  decodeJsonEvents,
  decodeToolAssistedChatStream,
  ToolAssistedChatStream,
} from "../src/index.ts"
import { chatChunk, pieceStream, reads, runAll, sseBody, testBody } from "./support.ts"

/** A tool status as Friendli sends it (the spec's example, with the fields of a failure). */
const toolStatus = (status: "STARTED" | "ERRORED" | "ENDED", error: unknown = null) => ({
  tool_call_id: "call_3QrfStXSU6fGdOGPcETocIAq",
  name: "math:calculator",
  status,
  parameters: [{ name: "expression", value: "150 * 1.60934" }],
  result: null,
  files: null,
  message: null,
  error,
  usage: null,
  timestamp: 1_726_277_121,
})

const failure = { type: "ToolExecutionError", msg: "division by zero" }

/** A tool-assisted stream in which the tool fails, and the model answers anyway. */
const failingToolBody = (): string =>
  `event: tool_status\ndata: ${JSON.stringify(toolStatus("STARTED"))}\n\n` +
  `event: tool_status\ndata: ${JSON.stringify(toolStatus("ERRORED", failure))}\n\n` +
  sseBody([
    chatChunk({ role: "assistant", content: "The tool failed, " }),
    chatChunk({ content: "but 150 miles is about 241 km." }),
    chatChunk({}, { finish: "stop" }),
  ])

const summary = (items: ReadonlyArray<ToolAssistedChatStream.ToolAssistedChatEvent>) =>
  items.map((e) => (e._tag === "ToolStatus" ? `${e.status.status}` : (e.chunk.choices[0]?.delta?.content ?? "")))

const expected = ["STARTED", "ERRORED", "The tool failed, ", "but 150 miles is about 241 km.", ""]

describe("tool-assisted chat", () => {
  it("delivers an ERRORED tool status, its error, and the answer that follows it", async () => {
    for (const validation of ["strict", "compatible"] as const) {
      const options: DecodeOptions = { validation }
      const effect = await runAll(ToolAssistedChatStream.decode(pieceStream(reads(failingToolBody())), options))
      assert.equal(effect.error, undefined, `${validation}: ${String(effect.error)}`)
      assert.deepEqual(summary(effect.items), expected)
      const errored = effect.items[1]
      assert.ok(errored?._tag === "ToolStatus")
      assert.deepEqual(errored.status.error, failure)
      const facade = await collect(decodeToolAssistedChatStream(testBody(reads(failingToolBody())).body, options))
      assert.equal(facade.error, undefined)
      assert.deepEqual(facade.items, effect.items)
      const body = await runAll(ToolAssistedChatStream.fromReadableStream(testBody(reads(failingToolBody())).body))
      assert.deepEqual(body.items, effect.items)
    }
  })

  it("still fails with ApiError on an event named error, or on an unnamed event with an error member", async () => {
    const start = `event: tool_status\ndata: ${JSON.stringify(toolStatus("STARTED"))}\n\n`
    for (const tail of [
      'event: error\ndata: {"error":{"message":"tool server down","type":"server_error"}}\n\n',
      'data: {"error":{"message":"tool server down","type":"server_error"}}\n\n',
    ]) {
      const { items, error } = await runAll(ToolAssistedChatStream.decode(pieceStream(reads(start + tail))))
      assert.deepEqual(summary(items), ["STARTED"])
      assert.ok(error instanceof ApiError, String(error))
      assert.match(error.message, /tool server down/)
      assert.equal(error.eventIndex, 1)
    }
  })

  it("decodes the data of any other named event with its codec, even when it has an error member", async () => {
    const Report = Schema.Struct({ ok: Schema.Boolean, error: Schema.NullOr(Schema.String) })
    const text = 'event: report\ndata: {"ok":false,"error":"disk full"}\n\ndata: [DONE]\n\n'
    const { items, error } = await runAll(
      pieceStream(reads(text)).pipe(decodeJsonEvents({ guard: Schema.is(Report), schema: Report })),
    )
    assert.equal(error, undefined)
    assert.deepEqual(items, [{ ok: false, error: "disk full" }])
  })
})
