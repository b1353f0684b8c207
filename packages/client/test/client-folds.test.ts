// The Promise client's finalCompletion(): the fold of what it streamed (reasoning apart from the answer; a
// tool-assisted stream's chat chunks, whatever the tools did).
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { makePromiseClient } from "../src/index.ts"
import { BASE, chatChunkWire as chatChunk, fakeServer, sse } from "./client-support.ts"

/** A Friendli reasoning model's stream: reasoning deltas, then the answer, then a tool call. */
const reasoningStream = [
  chatChunk({ role: "assistant", content: "" }),
  chatChunk({ reasoning_content: "The user wants" }),
  chatChunk({ reasoning_content: " the weather." }),
  chatChunk({ content: "Let me check." }),
  chatChunk({
    tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "weather", arguments: "{}" } }],
  }),
  chatChunk({}, "tool_calls"),
]

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

/** A tool-assisted stream in which the tool fails, and the model answers anyway. */
const failingToolBody = (): string =>
  `event: tool_status\ndata: ${JSON.stringify(toolStatus("STARTED"))}\n\n` +
  `event: tool_status\ndata: ${JSON.stringify(toolStatus("ERRORED", { type: "ToolExecutionError", msg: "division by zero" }))}\n\n` +
  [
    chatChunk({ role: "assistant", content: "The tool failed, " }),
    chatChunk({ content: "but 150 miles is about 241 km." }),
    chatChunk({}, "stop"),
  ]
    .map((c) => `data: ${JSON.stringify(c)}\n\n`)
    .join("") +
  "data: [DONE]\n\n"

describe("the Promise client's finalCompletion()", () => {
  it("gives message.reasoning_content apart from the answer", async () => {
    const server = fakeServer(sse(reasoningStream))
    const client = makePromiseClient(server.layer, { token: "t", baseURL: BASE })
    const request = { model: "m", messages: [{ role: "user" as const, content: "Weather?" }] }
    const completion = await client.chat.stream(request).finalCompletion()
    assert.equal(completion.choices[0]?.message.reasoning_content, "The user wants the weather.")
    assert.equal(completion.choices[0]?.message.content, "Let me check.")
    await client.close()
  })

  it("gives the answer after a failed tool of a tool-assisted chat", async () => {
    const server = fakeServer(
      () => new Response(failingToolBody(), { status: 200, headers: { "content-type": "text/event-stream" } }),
    )
    const client = makePromiseClient(server.layer, { token: "t", baseURL: BASE })
    const request = {
      model: "meta-llama-3.1-8b-instruct",
      messages: [{ role: "user" as const, content: "How many km is 150 miles?" }],
      tools: [{ type: "math:calculator" as const }],
    }
    const completion = await client.toolAssistedChat.stream(request).finalCompletion()
    assert.equal(completion.choices[0]?.message.content, "The tool failed, but 150 miles is about 241 km.")
    assert.equal(completion.choices[0]?.finish_reason, "stop")
    await client.close()
  })
})
