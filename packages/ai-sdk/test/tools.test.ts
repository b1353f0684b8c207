// Tool calls through the real `ai` package against the mock: input streaming, the AI SDK's tool loop, and
// Friendli's built-in tools as provider-executed tools.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { jsonSent } from "@friendli-stream/testing"
import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from "ai"
import { type Harness, MODEL, sentText, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

const weather = (calls: Array<unknown>) =>
  tool({
    description: "The weather in a city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
    execute: async (input) => {
      calls.push(input)
      return { city: input.city, sky: "clear" }
    },
  })

/** The whole arguments of the mock's first tool call. */
const sentArguments = (chunks: Array<Record<string, unknown>>): string =>
  chunks
    .flatMap((c) => c.choices as Array<{ delta?: { tool_calls?: Array<{ function: { arguments?: string } }> } }>)
    .flatMap((c) => c.delta?.tool_calls ?? [])
    .map((t) => t.function.arguments ?? "")
    .join("")

describe("tool calls", () => {
  it("streams tool input (start, deltas, end), then one tool-call with the whole arguments", async () => {
    const calls: Array<unknown> = []
    const result = streamText({
      model: h.provider()(MODEL),
      tools: { get_weather: weather(calls) },
      prompt: "use get_weather for Paris",
    })
    const parts: Array<Record<string, unknown>> = []
    for await (const part of result.fullStream) parts.push(part as never)
    const args = sentArguments(jsonSent(h.mock.lastRequest()!))
    const types = parts.map((p) => p.type)
    const start = types.indexOf("tool-input-start")
    const end = types.indexOf("tool-input-end")
    const call = types.indexOf("tool-call")
    assert.ok(start >= 0 && start < end && end < call, types.join(","))
    const deltas = parts.filter((p) => p.type === "tool-input-delta").map((p) => p.delta as string)
    assert.ok(deltas.length > 1, `the arguments came in ${deltas.length} pieces`)
    assert.equal(deltas.join(""), args)
    const toolCall = parts[call] as { toolName: string; input: unknown }
    assert.equal(toolCall.toolName, "get_weather")
    assert.deepEqual(toolCall.input, JSON.parse(args))
    assert.deepEqual(calls, [JSON.parse(args)])
    assert.equal(await result.finishReason, "tool-calls")
  })

  it("runs the AI SDK's tool loop: the tool's result goes back and the model answers", async () => {
    const calls: Array<unknown> = []
    const before = h.mock.requests.length
    const result = await generateText({
      model: h.provider()(MODEL),
      tools: { get_weather: weather(calls) },
      stopWhen: stepCountIs(3),
      prompt: "use get_weather for Paris",
    })
    const requests = h.mock.requests.slice(before)
    assert.equal(requests.length, 2, "one request for the call, one for the answer")
    const second = requests[1]!.body as { messages: Array<{ role: string; tool_call_id?: string; content?: unknown }> }
    const toolMessage = second.messages.find((m) => m.role === "tool")!
    assert.equal(toolMessage.tool_call_id, result.steps[0]!.toolCalls[0]!.toolCallId)
    assert.deepEqual(JSON.parse(toolMessage.content as string), {
      city: (calls[0] as { city: string }).city,
      sky: "clear",
    })
    assert.equal(result.text, sentText(requests[1]!))
    assert.ok(result.text.length > 0)
    assert.equal(result.finishReason, "stop")
  })

  it("keeps response_format when tools are given", async () => {
    await generateText({
      model: h.provider()(MODEL),
      tools: { get_weather: weather([]) },
      toolChoice: "none",
      output: Output.object({ schema: jsonSchema({ type: "object", properties: { a: { type: "string" } } }) }),
      prompt: "Hello",
      maxOutputTokens: 30,
    }).catch(() => undefined) // the mock's text is not JSON: only the request matters here
    const body = h.mock.lastRequest()!.body as Record<string, unknown>
    assert.equal((body.tools as Array<unknown>).length, 1)
    assert.equal(body.tool_choice, "none")
    assert.deepEqual(body.response_format, {
      type: "json_schema",
      json_schema: { schema: { type: "object", properties: { a: { type: "string" } } } },
    })
  })
})

describe("built-in tools", () => {
  it("sends built-in tools to the tool-assisted API and reports each run as a tool call and its result", async () => {
    const friendli = h.provider()
    const result = await generateText({
      model: friendli(MODEL),
      tools: { calc: friendli.tools.calculator(), search: friendli.tools.webSearch() },
      prompt: "What is 150 * 16?",
      maxOutputTokens: 20,
    })
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/serverless/tools/v1/chat/completions")
    assert.deepEqual((record.body as { tools: unknown }).tools, [{ type: "math:calculator" }, { type: "web:search" }])
    const statuses = jsonSent(record).filter((c) => "tool_call_id" in c) as Array<{
      tool_call_id: string
      name: string
      status: string
      result: string | null
    }>
    const ended = statuses.filter((s) => s.status === "ENDED")
    assert.equal(ended.length, 2)
    const content = result.content
    const calls = content.filter((p) => p.type === "tool-call")
    const results = content.filter((p) => p.type === "tool-result")
    assert.deepEqual(
      calls.map((c) => [c.toolCallId, c.toolName, c.providerExecuted]),
      ended.map((s) => [s.tool_call_id, s.name === "math:calculator" ? "calc" : "search", true]),
    )
    assert.deepEqual(
      results.map((r) => [r.toolCallId, r.output]),
      ended.map((s) => [s.tool_call_id, JSON.parse(s.result!)]),
    )
    assert.equal(result.text, sentText(record))
  })

  it("reports a failed built-in tool as a tool error, and still delivers the answer after it", async () => {
    const friendli = h.provider("tool-error")
    const result = await generateText({
      model: friendli(MODEL),
      tools: { calc: friendli.tools.calculator() },
      prompt: "What is 150 * 16?",
      maxOutputTokens: 20,
    })
    const record = h.mock.lastRequest()!
    const errored = jsonSent(record).find((c) => c.status === "ERRORED") as {
      tool_call_id: string
      error: { type: string; msg: string }
    }
    assert.ok(errored !== undefined, "the mock sent an ERRORED status")
    const failure = result.content.find((p) => p.type === "tool-error")
    assert.ok(failure !== undefined, JSON.stringify(result.content.map((p) => p.type)))
    assert.equal(failure.toolCallId, errored.tool_call_id)
    assert.deepEqual(failure.error, { type: errored.error.type, message: errored.error.msg })
    assert.ok(result.text.length > 0)
    assert.equal(result.text, sentText(record))
  })
})
