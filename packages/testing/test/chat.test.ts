import assert from "node:assert/strict"
import { ToolStatusEvent } from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import * as Schema from "effect/Schema"
import { accumulateText, chatBody, choicesOf, newMock, post, readStream, type ToolCallDelta } from "./helpers.ts"

const PATHS = {
  serverless: "/serverless/v1/chat/completions",
  dedicated: "/dedicated/v1/chat/completions",
  container: "/v1/chat/completions",
} as const
const TOOLS_PATH = "/serverless/tools/v1/chat/completions"

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather of a city",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        unit: { type: "string", enum: ["c", "f"] },
        hourly: { type: "boolean" },
      },
      required: ["city"],
    },
  },
}
const time = { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } }

/** Joins the tool-call fragments of choice 0 into whole calls. */
const toolCalls = (chunks: ReadonlyArray<Record<string, unknown>>) => {
  const calls: Array<{ id: string; name: string; arguments: string }> = []
  for (const chunk of chunks) {
    for (const c of choicesOf(chunk)) {
      if (c.index !== 0) continue
      for (const d of (c.delta?.tool_calls ?? []) as Array<ToolCallDelta>) {
        if (d.id != null) calls[d.index] = { id: d.id, name: d.function.name ?? "", arguments: "" }
        calls[d.index]!.arguments += d.function.arguments
      }
    }
  }
  return calls
}

describe("chat completions", () => {
  for (const [kind, path] of Object.entries(PATHS)) {
    it(`streams chat.completion.chunk deltas then [DONE] on the ${kind} path`, async () => {
      const mock = newMock()
      const { chunks, done } = await readStream(
        await post(mock, path, chatBody({ model: kind === "dedicated" ? "ep1" : "m" })),
      )
      assert.equal(done, true)
      const id = chunks[0]!.id as string
      assert.match(id, /^chatcmpl-[0-9a-f]{32}$/)
      for (const chunk of chunks) {
        assert.equal(chunk.object, "chat.completion.chunk")
        assert.equal(chunk.id, id)
      }
      const first = choicesOf(chunks[0]!)[0]!
      assert.equal(first.delta?.role, "assistant")
      assert.ok((first.delta?.content ?? "").length > 0)
      for (const chunk of chunks.slice(1, -1)) {
        const c = choicesOf(chunk)[0]!
        assert.equal(c.delta?.role, undefined)
        assert.equal(typeof c.delta?.content, "string")
        assert.equal(c.finish_reason, null)
      }
      const last = choicesOf(chunks.at(-1)!)[0]!
      assert.deepEqual(last.delta, {})
      assert.ok(last.finish_reason === "stop" || last.finish_reason === "length")
      assert.equal(mock.lastRequest()?.api, "chat")
    })
  }

  it("honours max_tokens, n, seed and stop like completions", async () => {
    const mock = newMock()
    const body = chatBody({ max_tokens: 6, ignore_eos: true, n: 2, seed: 4 })
    const { chunks } = await readStream(await post(mock, PATHS.serverless, body))
    const finishes = chunks.flatMap(choicesOf).filter((c) => c.finish_reason !== null)
    assert.deepEqual(
      finishes.map((c) => [c.index, c.finish_reason]),
      [
        [0, "length"],
        [1, "length"],
      ],
    )
    const texts = accumulateText(chunks)
    assert.notEqual(texts.get(0), texts.get(1))
    const again = accumulateText((await readStream(await post(mock, PATHS.serverless, body))).chunks)
    assert.deepEqual(again, texts)
    const stopWord = ` ${texts.get(0)!.trim().split(/\s+/)[3]}`
    const stopped = await readStream(await post(mock, PATHS.serverless, { ...body, n: 1, stop: [stopWord] }))
    assert.equal(accumulateText(stopped.chunks).get(0), texts.get(0)!.slice(0, texts.get(0)!.indexOf(stopWord)))
    assert.equal(choicesOf(stopped.chunks.at(-1)!)[0]!.finish_reason, "stop")
  })

  it("returns token logprobs with top_logprobs alternatives when logprobs is true", async () => {
    const body = chatBody({ logprobs: true, top_logprobs: 2, max_tokens: 3, ignore_eos: true })
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    for (const chunk of chunks.slice(0, -1)) {
      const c = choicesOf(chunk)[0]!
      const lp = c.logprobs as {
        content: Array<{
          token: string
          logprob: number
          bytes: Array<number>
          top_logprobs: Array<{ token: string; logprob: number }>
        }>
      }
      assert.equal(lp.content.length, 1)
      assert.equal(lp.content[0]!.token, c.delta?.content)
      assert.deepEqual(lp.content[0]!.bytes, Array.from(new TextEncoder().encode(c.delta!.content!)))
      assert.equal(lp.content[0]!.top_logprobs.length, 2)
      assert.equal(lp.content[0]!.top_logprobs[0]!.token, c.delta?.content)
    }
    assert.equal(choicesOf(chunks.at(-1)!)[0]!.logprobs, null)
  })

  it("sends logprobs null when logprobs is not asked for", async () => {
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, chatBody({ max_tokens: 3 })))
    assert.ok(chunks.flatMap(choicesOf).every((c) => c.logprobs === null))
  })

  it("ends with a usage chunk with empty choices when include_usage is set", async () => {
    const body = chatBody({ max_tokens: 5, ignore_eos: true, stream_options: { include_usage: true } })
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    const last = chunks.at(-1)!
    assert.deepEqual(last.choices, [])
    const usage = last.usage as { prompt_tokens: number; completion_tokens: number; total_tokens: number }
    assert.equal(usage.completion_tokens, 5)
    assert.equal(usage.total_tokens, usage.prompt_tokens + 5)
    assert.ok(usage.prompt_tokens > 0)
  })

  it("calls a function named in the last user message when tool_choice is auto", async () => {
    const body = chatBody({
      messages: [{ role: "user", content: "Please use get_weather for Paris" }],
      tools: [weather, time],
    })
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    const calls = toolCalls(chunks)
    assert.equal(calls.length, 1)
    assert.equal(calls[0]!.name, "get_weather")
    assert.match(calls[0]!.id, /^call_[0-9a-f]{16}$/)
    const args = JSON.parse(calls[0]!.arguments) as Record<string, unknown>
    assert.equal(typeof args.city, "string")
    assert.equal(Number.isInteger(args.days), true)
    assert.ok(args.unit === "c" || args.unit === "f")
    assert.equal(typeof args.hourly, "boolean")
    const first = choicesOf(chunks[0]!)[0]!
    assert.equal(first.delta?.role, "assistant")
    assert.equal(first.delta?.tool_calls?.[0]?.type, "function")
    assert.equal(first.delta?.tool_calls?.[0]?.function.arguments, "")
    assert.ok(chunks.length > 3, "arguments arrive in several fragments")
    assert.equal(choicesOf(chunks.at(-1)!)[0]!.finish_reason, "tool_calls")
  })

  it("streams a call as Friendli does: its first delta names it, the next ones carry id and name null and a piece of the arguments", async () => {
    const body = chatBody({ messages: [{ role: "user", content: "get_time and get_weather" }], tools: [weather, time] })
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    const deltas = chunks.flatMap(choicesOf).flatMap((c) => c.delta?.tool_calls ?? [])
    for (const index of [0, 1]) {
      const [first, ...rest] = deltas.filter((d) => d.index === index)
      assert.match(first?.id ?? "", /^call_[0-9a-f]{16}$/)
      assert.equal(first?.type, "function")
      assert.ok(typeof first?.function.name === "string" && first.function.name.length > 0)
      assert.equal(first?.function.arguments, "")
      assert.ok(rest.length > 0, `call ${index}: its arguments arrive in ${rest.length} pieces`)
      for (const d of rest) {
        assert.deepEqual(
          { id: d.id, type: d.type, name: d.function.name },
          { id: null, type: "function", name: null },
          JSON.stringify(d),
        )
        assert.ok(d.function.arguments.length > 0)
      }
    }
    const roles = chunks.flatMap(choicesOf).map((c) => c.delta?.role)
    assert.deepEqual(roles.slice(0, 1), ["assistant"])
    assert.ok(
      roles.slice(1).every((r) => r === undefined),
      `only the first delta has a role: ${JSON.stringify(roles)}`,
    )
  })

  it("answers with text when tool_choice is auto and no function is named", async () => {
    const body = chatBody({ messages: [{ role: "user", content: "Just chat" }], tools: [weather] })
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    assert.equal(toolCalls(chunks).length, 0)
    assert.notEqual(choicesOf(chunks.at(-1)!)[0]!.finish_reason, "tool_calls")
  })

  it("calls several functions in parallel, and only one with parallel_tool_calls false", async () => {
    const messages = [{ role: "user", content: "get_time and get_weather" }]
    const both = await readStream(
      await post(newMock(), PATHS.serverless, chatBody({ messages, tools: [weather, time] })),
    )
    assert.deepEqual(
      toolCalls(both.chunks).map((c) => c.name),
      ["get_weather", "get_time"],
    )
    const one = await readStream(
      await post(
        newMock(),
        PATHS.serverless,
        chatBody({ messages, tools: [weather, time], parallel_tool_calls: false }),
      ),
    )
    assert.deepEqual(
      toolCalls(one.chunks).map((c) => c.name),
      ["get_weather"],
    )
  })

  it("calls the first function with tool_choice required and the named one with a function tool_choice", async () => {
    const messages = [{ role: "user", content: "anything" }]
    const required = await readStream(
      await post(newMock(), PATHS.serverless, chatBody({ messages, tools: [time, weather], tool_choice: "required" })),
    )
    assert.deepEqual(
      toolCalls(required.chunks).map((c) => c.name),
      ["get_time"],
    )
    const named = await readStream(
      await post(
        newMock(),
        PATHS.serverless,
        chatBody({
          messages,
          tools: [time, weather],
          tool_choice: { type: "function", function: { name: "get_weather" } },
        }),
      ),
    )
    assert.deepEqual(
      toolCalls(named.chunks).map((c) => c.name),
      ["get_weather"],
    )
  })

  it("answers with text with tool_choice none, and after a tool result", async () => {
    const none = await readStream(
      await post(
        newMock(),
        PATHS.serverless,
        chatBody({ messages: [{ role: "user", content: "get_weather" }], tools: [weather], tool_choice: "none" }),
      ),
    )
    assert.equal(toolCalls(none.chunks).length, 0)
    const messages = [
      { role: "user", content: "get_weather in Paris" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
    ]
    const after = await readStream(await post(newMock(), PATHS.serverless, chatBody({ messages, tools: [weather] })))
    assert.equal(toolCalls(after.chunks).length, 0)
    assert.ok((accumulateText(after.chunks).get(0) ?? "").length > 0)
  })

  it("writes JSON content for response_format json_object, following a schema when given", async () => {
    const mock = newMock()
    const plain = await readStream(
      await post(mock, PATHS.serverless, chatBody({ response_format: { type: "json_object" } })),
    )
    const value = JSON.parse(accumulateText(plain.chunks).get(0)!) as Record<string, unknown>
    assert.equal(typeof value.answer, "string")
    const schema = {
      type: "object",
      properties: { n: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
    }
    const shaped = await readStream(
      await post(
        mock,
        PATHS.serverless,
        chatBody({ response_format: { type: "json_object", schema: JSON.stringify(schema) } }),
      ),
    )
    const v = JSON.parse(accumulateText(shaped.chunks).get(0)!) as { n: number; tags: Array<string> }
    assert.equal(Number.isInteger(v.n), true)
    assert.ok(Array.isArray(v.tags) && v.tags.every((t) => typeof t === "string"))
    const openai = await readStream(
      await post(
        mock,
        PATHS.serverless,
        chatBody({ response_format: { type: "json_schema", json_schema: { name: "x", schema } } }),
      ),
    )
    assert.equal(typeof (JSON.parse(accumulateText(openai.chunks).get(0)!) as { n: number }).n, "number")
  })

  it("cuts JSON content at max_tokens with finish_reason length", async () => {
    const body = chatBody({ response_format: { type: "json_object" }, max_tokens: 2 })
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    assert.equal(choicesOf(chunks.at(-1)!)[0]!.finish_reason, "length")
    assert.throws(() => JSON.parse(accumulateText(chunks).get(0)!))
  })

  it("answers a non-streaming request with the message the stream accumulates to", async () => {
    const mock = newMock()
    for (const extra of [
      { max_tokens: 9, n: 2, seed: 2, logprobs: true, top_logprobs: 1 },
      { messages: [{ role: "user", content: "get_weather please" }], tools: [weather] },
    ]) {
      const body = chatBody(extra)
      const streamed = await readStream(await post(mock, PATHS.serverless, body))
      const res = await post(mock, PATHS.serverless, { ...body, stream: false })
      const json = (await res.json()) as {
        object: string
        choices: Array<{
          index: number
          message: {
            role: string
            content: string | null
            tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>
          }
          finish_reason: string
        }>
        usage: { completion_tokens: number }
      }
      assert.equal(json.object, "chat.completion")
      const texts = accumulateText(streamed.chunks)
      for (const choice of json.choices) {
        assert.equal(choice.message.role, "assistant")
        if (choice.message.tool_calls === undefined) assert.equal(choice.message.content, texts.get(choice.index))
        else {
          assert.equal(choice.message.content, null)
          assert.deepEqual(
            choice.message.tool_calls.map((c) => ({
              id: c.id,
              name: c.function.name,
              arguments: c.function.arguments,
            })),
            toolCalls(streamed.chunks),
          )
        }
        const finish = streamed.chunks
          .flatMap(choicesOf)
          .find((c) => c.index === choice.index && c.finish_reason !== null)
        assert.equal(choice.finish_reason, finish?.finish_reason)
      }
    }
  })
})

describe("tool-assisted chat completions", () => {
  it("emits tool_status events for each built-in tool, then the answer", async () => {
    const mock = newMock()
    const body = chatBody({
      messages: [{ role: "user", content: "What is 150 miles in km?" }],
      tools: [{ type: "math:calculator" }, { type: "web:search" }],
    })
    const { events, chunks, done } = await readStream(await post(mock, TOOLS_PATH, body))
    assert.equal(done, true)
    const statuses = events
      .filter((e) => e.event === "tool_status")
      .map((e) => JSON.parse(e.data) as Record<string, unknown>)
    assert.deepEqual(
      statuses.map((s) => [s.name, s.status]),
      [
        ["math:calculator", "STARTED"],
        ["math:calculator", "UPDATING"],
        ["math:calculator", "ENDED"],
        ["web:search", "STARTED"],
        ["web:search", "UPDATING"],
        ["web:search", "ENDED"],
      ],
    )
    const ended = statuses[2]!
    assert.equal(typeof ended.result, "string")
    assert.equal(typeof JSON.parse(ended.result as string).result, "string")
    assert.match(ended.tool_call_id as string, /^call_/)
    assert.equal(typeof ended.timestamp, "number")
    assert.deepEqual(Object.keys((ended.parameters as Array<object>)[0]!), ["name", "value"])
    assert.equal(statuses[0]!.tool_call_id, ended.tool_call_id)
    const firstChatEvent = events.findIndex((e) => e.event === undefined)
    assert.ok(firstChatEvent > 5, "tool events come before the answer")
    assert.ok((accumulateText(chunks.filter((c) => c.object !== undefined)).get(0) ?? "").length > 0)
    assert.equal(mock.lastRequest()?.api, "tools-chat")
  })

  it("streams STARTED, UPDATING and ENDED for every one of Friendli's eight built-in tools, linkup:search included", async () => {
    const names = ToolStatusEvent.schema.fields.name.literals
    assert.equal(names.length, 8)
    assert.ok(names.includes("linkup:search"))
    const tools = names.map((type) => (type === "file:text" ? { type, files: ["file-1"] } : { type }))
    const body = chatBody({ messages: [{ role: "user", content: "Look it up." }], tools })
    const { events, done } = await readStream(await post(newMock(), TOOLS_PATH, body))
    assert.equal(done, true)
    const statuses = events
      .filter((e) => e.event === "tool_status")
      .map((e) => Schema.decodeUnknownSync(ToolStatusEvent)(JSON.parse(e.data)))
    assert.deepEqual(
      statuses.map((s) => `${s.name} ${s.status}`),
      names.flatMap((name) => [`${name} STARTED`, `${name} UPDATING`, `${name} ENDED`]),
    )
  })

  it("reports a failing built-in tool with status ERRORED and an error under the tool-error fault", async () => {
    const body = chatBody({ tools: [{ type: "web:search" }] })
    const { events } = await readStream(
      await post(newMock(), TOOLS_PATH, body, { headers: { "x-mock-fault": "tool-error" } }),
    )
    const statuses = events
      .filter((e) => e.event === "tool_status")
      .map((e) => JSON.parse(e.data) as Record<string, unknown>)
    assert.deepEqual(
      statuses.map((s) => s.status),
      ["STARTED", "ERRORED"],
    )
    assert.deepEqual(Object.keys(statuses[1]!.error as object), ["type", "msg"])
  })

  it("rejects built-in tools on the plain chat path", async () => {
    const res = await post(newMock(), PATHS.serverless, chatBody({ tools: [{ type: "web:search" }] }))
    assert.equal(res.status, 422)
    const body = (await res.json()) as { detail: Array<{ loc: Array<string | number> }> }
    assert.deepEqual(body.detail[0]!.loc, ["body", "tools", 0, "type"])
  })

  it("does not exist on dedicated endpoints and containers", async () => {
    const mock = newMock()
    assert.equal((await post(mock, "/dedicated/tools/v1/chat/completions", chatBody())).status, 404)
    assert.equal((await post(mock, "/tools/v1/chat/completions", chatBody())).status, 404)
  })
})
