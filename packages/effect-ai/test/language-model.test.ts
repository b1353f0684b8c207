// effect/ai's LanguageModel, Chat and Toolkit on FriendliLanguageModel, against the mock over HTTP.
import assert from "node:assert/strict"
import { RateLimitError } from "@friendli-stream/client"
import { StreamTruncated } from "@friendli-stream/stream"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { jsonSent } from "@friendli-stream/testing"
import * as AiError from "effect/ai/AiError"
import * as Chat from "effect/ai/Chat"
import * as LanguageModel from "effect/ai/LanguageModel"
import type * as Response from "effect/ai/Response"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { FriendliLanguageModel } from "../src/index.ts"
import { type Harness, sentText, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

const GetWeather = Tool.make("get_weather", {
  description: "The weather in a city",
  parameters: Schema.Struct({ city: Schema.String }),
  success: Schema.Struct({ city: Schema.String, sky: Schema.String }),
})
const Weather = Toolkit.make(GetWeather)

/** The toolkit's handlers, recording each call's parameters. */
const weatherHandlers = (calls: Array<{ city: string }>) =>
  Weather.toLayer({
    get_weather: ({ city }) =>
      Effect.sync(() => {
        calls.push({ city })
        return { city, sky: "clear" }
      }),
  })

const run = <A, E>(effect: Effect.Effect<A, E, LanguageModel.LanguageModel>, faults?: string) =>
  Effect.runPromise(effect.pipe(Effect.provide(h.layer({ faults }))))

describe("LanguageModel.streamText", () => {
  it("streams the text the server sent, then a finish part with its reason and usage", async () => {
    const parts = await run(LanguageModel.streamText({ prompt: "Tell me about the sea" }).pipe(Stream.runCollect))
    const record = h.mock.lastRequest()!
    const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("")
    assert.ok(sentText(record).length > 0)
    assert.equal(text, sentText(record))
    const finish = parts.find((p): p is Response.FinishPart => p.type === "finish")!
    assert.equal(finish.reason, "stop")
    const usage = jsonSent(record).at(-1)!.usage as { prompt_tokens: number; completion_tokens: number }
    assert.equal(finish.usage.inputTokens.total, usage.prompt_tokens)
    assert.equal(finish.usage.outputTokens.total, usage.completion_tokens)
    assert.deepEqual((record.body as { stream_options: unknown }).stream_options, { include_usage: true })
  })

  it("streams reasoning apart from the answer, with the reasoning tokens in the usage", async () => {
    const parts = await Effect.runPromise(
      LanguageModel.streamText({ prompt: "Why is the sky blue?" }).pipe(
        Stream.runCollect,
        Effect.provide(h.layer({ fields: { reasoning_effort: "low", max_tokens: 300 } })),
      ),
    )
    const record = h.mock.lastRequest()!
    assert.equal((record.body as { reasoning_effort: string }).reasoning_effort, "low")
    const reasoning = parts.flatMap((p) => (p.type === "reasoning-delta" ? [p.delta] : [])).join("")
    assert.ok(sentText(record, "reasoning_content").length > 0)
    assert.equal(reasoning, sentText(record, "reasoning_content"))
    const types = parts.map((p) => p.type)
    assert.ok(types.indexOf("reasoning-end") < types.indexOf("text-start"), types.join(","))
    const finish = parts.find((p): p is Response.FinishPart => p.type === "finish")!
    const usage = jsonSent(record).at(-1)!.usage as { completion_tokens_details: { reasoning_tokens: number } }
    assert.equal(finish.usage.outputTokens.reasoning, usage.completion_tokens_details.reasoning_tokens)
  })

  it("fails a cut stream with an AiError whose cause is our StreamTruncated, after the parts before the cut", async () => {
    const seen: Array<string> = []
    const exit = await Effect.runPromise(
      LanguageModel.streamText({ prompt: "Tell me a story" }).pipe(
        Stream.runForEach((p) => Effect.sync(() => seen.push(p.type))),
        Effect.exit,
        Effect.provide(h.layer({ faults: "truncate:3" })),
      ),
    )
    assert.ok(Exit.isFailure(exit))
    const error = Exit.findErrorOption(exit)
    assert.ok(error._tag === "Some" && AiError.isAiError(error.value), String(exit))
    assert.equal(error.value.reason._tag, "InvalidResponseError")
    assert.ok(FriendliLanguageModel.failureOf(error.value) instanceof StreamTruncated)
    assert.ok(seen.includes("text-delta"), seen.join(","))
    assert.ok(!seen.includes("finish"), seen.join(","))
  })
})

describe("LanguageModel.generateText", () => {
  it("gives the same answer as the stream of the same request", async () => {
    const prompt = "Say something kind"
    const whole = await run(LanguageModel.generateText({ prompt }))
    const streamed = await run(
      LanguageModel.streamText({ prompt }).pipe(
        Stream.runFold(
          () => "",
          (acc, p) => (p.type === "text-delta" ? acc + p.delta : acc),
        ),
      ),
    )
    assert.ok(whole.text.length > 0)
    assert.equal(whole.text, streamed)
    assert.equal(whole.finishReason, "stop")
    assert.ok((whole.usage.outputTokens.total ?? 0) > 0)
  })

  it("a 429 is an AiError RateLimitError with the server's Retry-After and our RateLimitError as cause", async () => {
    const exit = await Effect.runPromise(
      LanguageModel.generateText({ prompt: "Hi" }).pipe(
        Effect.exit,
        Effect.provide(h.layer({ faults: "rate-limit:2" })),
      ),
    )
    const error = Exit.findErrorOption(exit)
    assert.ok(error._tag === "Some" && AiError.isAiError(error.value), String(exit))
    assert.equal(error.value.reason._tag, "RateLimitError")
    assert.equal(error.value.isRetryable, true)
    assert.equal(error.value.retryAfter === undefined ? undefined : Duration.toMillis(error.value.retryAfter), 2000)
    const cause = FriendliLanguageModel.failureOf(error.value)
    assert.ok(cause instanceof RateLimitError)
    assert.equal(cause.status, 429)
  })

  it("asks for JSON with the schema of generateObject", async () => {
    const Answer = Schema.Struct({ answer: Schema.String })
    await run(LanguageModel.generateObject({ prompt: "Answer in JSON", schema: Answer, objectName: "answer" })).catch(
      () => undefined, // the mock's text is not JSON: only the request matters here
    )
    const body = h.mock.lastRequest()!.body as {
      response_format: { type: string; json_schema: { schema: { properties: object } } }
    }
    assert.equal(body.response_format.type, "json_schema")
    assert.deepEqual(Object.keys(body.response_format.json_schema.schema.properties), ["answer"])
  })
})

describe("Toolkit and Chat", () => {
  it("sends the toolkit's tools as JSON Schema and runs the handler on the model's call", async () => {
    const calls: Array<{ city: string }> = []
    const response = await run(
      LanguageModel.generateText({ prompt: "use get_weather for Paris", toolkit: Weather }).pipe(
        Effect.provide(weatherHandlers(calls)),
      ),
    )
    const body = h.mock.lastRequest()!.body as {
      tools: Array<{ function: { name: string; parameters: { properties: object } } }>
    }
    assert.deepEqual(
      body.tools.map((t) => [t.function.name, Object.keys(t.function.parameters.properties)]),
      [["get_weather", ["city"]]],
    )
    assert.equal(response.toolCalls.length, 1)
    assert.deepEqual(calls, [response.toolCalls[0]!.params])
    assert.deepEqual(response.toolResults[0]!.result, { city: calls[0]!.city, sky: "clear" })
    assert.equal(response.finishReason, "tool-calls")
  })

  it("streams tool parameters, then the call and the handler's result", async () => {
    const calls: Array<{ city: string }> = []
    const parts = await run(
      LanguageModel.streamText({ prompt: "use get_weather for Paris", toolkit: Weather }).pipe(
        Stream.runCollect,
        Effect.provide(weatherHandlers(calls)),
      ),
    )
    const types = parts.map((p) => p.type)
    assert.ok(types.indexOf("tool-params-start") < types.indexOf("tool-params-end"), types.join(","))
    assert.ok(types.indexOf("tool-params-end") < types.indexOf("tool-call"), types.join(","))
    assert.ok(types.includes("tool-result"), types.join(","))
    const deltas = parts.flatMap((p) => (p.type === "tool-params-delta" ? [p.delta] : [])).join("")
    assert.deepEqual(JSON.parse(deltas), calls[0])
  })

  it("a Chat keeps the tool round trip in its history: the next request carries the handler's result", async () => {
    const calls: Array<{ city: string }> = []
    const answer = await run(
      Effect.gen(function* () {
        const chat = yield* Chat.empty
        yield* chat.generateText({ prompt: "use get_weather for Paris", toolkit: Weather })
        return yield* chat.generateText({ prompt: "And so?" })
      }).pipe(Effect.provide(weatherHandlers(calls))),
    )
    const messages = (h.mock.lastRequest()!.body as { messages: Array<Record<string, unknown>> }).messages
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "tool", "user"],
    )
    const assistant = messages[1] as {
      tool_calls: Array<{ id: string; function: { name: string; arguments: string } }>
    }
    assert.equal(assistant.tool_calls[0]!.function.name, "get_weather")
    assert.deepEqual(JSON.parse(assistant.tool_calls[0]!.function.arguments), calls[0])
    assert.equal(messages[2]!.tool_call_id, assistant.tool_calls[0]!.id)
    assert.deepEqual(JSON.parse(messages[2]!.content as string), { city: calls[0]!.city, sky: "clear" })
    assert.ok(answer.text.length > 0)
  })
})
