// Friendli's built-in tools as effect/ai provider-defined tools, against the mock's tool-assisted API over HTTP.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { jsonSent } from "@friendli-stream/testing"
import * as LanguageModel from "effect/ai/LanguageModel"
import * as Toolkit from "effect/ai/Toolkit"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { FriendliTool } from "../src/index.ts"
import { type Harness, sentText, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

const Tools = Toolkit.make(FriendliTool.Calculator(), FriendliTool.WebSearch())

type Status = {
  tool_call_id: string
  name: string
  status: string
  result: string | null
  error: { type: string; msg: string } | null
}
const statuses = () => jsonSent(h.mock.lastRequest()!).filter((c) => "tool_call_id" in c) as Array<Status>

describe("built-in tools", () => {
  it("generateText sends them to the tool-assisted API and reports each run as a provider-executed call and result", async () => {
    const response = await Effect.runPromise(
      LanguageModel.generateText({ prompt: "What is 150 * 16?", toolkit: Tools }).pipe(Effect.provide(h.layer())),
    )
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/serverless/tools/v1/chat/completions")
    assert.deepEqual((record.body as { tools: unknown }).tools, [{ type: "math:calculator" }, { type: "web:search" }])
    const ended = statuses().filter((s) => s.status === "ENDED")
    assert.equal(ended.length, 2)
    assert.deepEqual(
      response.toolCalls.map((c) => [c.id, c.name, c.providerExecuted]),
      ended.map((s) => [s.tool_call_id, s.name === "math:calculator" ? "calculator" : "web_search", true]),
    )
    assert.deepEqual(
      response.toolResults.map((r) => [r.id, r.isFailure, r.result]),
      ended.map((s) => [s.tool_call_id, false, JSON.parse(s.result!)]),
    )
    assert.ok(response.text.length > 0)
    assert.equal(response.text, sentText(record))
  })

  it("streamText reports a failed run as a failed result, and the answer after it", async () => {
    const parts = await Effect.runPromise(
      LanguageModel.streamText({ prompt: "What is 150 * 16?", toolkit: Tools }).pipe(
        Stream.runCollect,
        Effect.provide(h.layer({ faults: "tool-error" })),
      ),
    )
    const errored = statuses().find((s) => s.status === "ERRORED")!
    assert.ok(errored !== undefined, "the mock sent an ERRORED status")
    const failed = parts.find((p) => p.type === "tool-result" && p.isFailure)
    assert.ok(failed !== undefined && failed.type === "tool-result", parts.map((p) => p.type).join(","))
    assert.equal(failed.id, errored.tool_call_id)
    assert.deepEqual(failed.result, { type: errored.error!.type, message: errored.error!.msg })
    const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("")
    assert.ok(text.length > 0)
    assert.equal(text, sentText(h.mock.lastRequest()!))
  })
})
