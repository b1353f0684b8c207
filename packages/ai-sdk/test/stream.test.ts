// streamText and generateText of the real `ai` package against the mock over HTTP: text, reasoning, usage,
// response metadata, completions, n > 1, logprobs and raw chunks.
import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { jsonSent } from "@friendli-stream/testing"
import { generateText, streamText } from "ai"
import { type Harness, MODEL, sentReasoning, sentText, sentUsage, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

const partsOf = async (stream: AsyncIterable<{ type: string }>) => {
  const parts: Array<{ type: string } & Record<string, unknown>> = []
  for await (const part of stream) parts.push(part as never)
  return parts
}

describe("streamText", () => {
  it("streams the text the server sent, with its finish reason and usage", async () => {
    const result = streamText({ model: h.provider()(MODEL), prompt: "Tell me about the sea", maxOutputTokens: 12 })
    let streamed = ""
    for await (const text of result.textStream) streamed += text
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/serverless/v1/chat/completions")
    assert.ok(sentText(record).length > 0, "the mock sent some text")
    assert.equal(streamed, sentText(record))
    assert.equal(await result.finishReason, "length")
    const usage = await result.usage
    const sent = sentUsage(record)
    assert.equal(usage.inputTokens, sent.prompt_tokens)
    assert.equal(usage.outputTokens, sent.completion_tokens)
  })

  it("gives the response's id, model and headers", async () => {
    const result = streamText({ model: h.provider()(MODEL), prompt: "Hello", maxOutputTokens: 3 })
    await result.consumeStream()
    const response = await result.response
    const record = h.mock.lastRequest()!
    const first = jsonSent(record)[0]!
    assert.equal(response.id, first.id)
    assert.equal(response.modelId, first.model)
    assert.equal(response.headers?.["x-request-id"], record.id)
  })

  it("streams reasoning apart from the answer, reasoning blocks closed before the text starts", async () => {
    const result = streamText({
      model: h.provider()(MODEL),
      prompt: "Why is the sky blue?",
      maxOutputTokens: 200,
      providerOptions: { friendli: { reasoningEffort: "low" } },
    })
    const parts = await partsOf(result.fullStream)
    const record = h.mock.lastRequest()!
    assert.equal((record.body as Record<string, unknown>).reasoning_effort, "low")
    assert.ok(sentReasoning(record).length > 0, "the mock sent reasoning")
    assert.equal(await result.reasoningText, sentReasoning(record))
    assert.equal(await result.text, sentText(record))
    const types = parts.map((p) => p.type)
    assert.ok(types.indexOf("reasoning-start") < types.indexOf("reasoning-end"), types.join(","))
    assert.ok(types.indexOf("reasoning-end") < types.indexOf("text-start"), types.join(","))
    const usage = await result.usage
    const details = sentUsage(record).completion_tokens_details as { reasoning_tokens: number }
    assert.equal(usage.outputTokenDetails.reasoningTokens, details.reasoning_tokens)
  })

  it("maps the call's reasoning setting to reasoning_effort", async () => {
    await generateText({ model: h.provider()(MODEL), prompt: "Think", reasoning: "high", maxOutputTokens: 50 })
    assert.equal((h.mock.lastRequest()!.body as Record<string, unknown>).reasoning_effort, "high")
  })

  it("reports every choice of n > 1: the first as the text, the others in provider metadata", async () => {
    const result = await generateText({
      model: h.provider()(MODEL),
      prompt: "Name a colour",
      maxOutputTokens: 6,
      providerOptions: { friendli: { n: 2 } },
    })
    const record = h.mock.lastRequest()!
    assert.equal(result.text, sentText(record, 0))
    const choices = result.providerMetadata?.friendli?.choices as Array<{ index: number; text: string }>
    assert.deepEqual(
      choices.map((c) => [c.index, c.text]),
      [[1, sentText(record, 1)]],
    )
  })

  it("puts logprobs in provider metadata and raw chunks in the stream when asked", async () => {
    const result = streamText({
      model: h.provider()(MODEL),
      prompt: "Hello",
      maxOutputTokens: 4,
      includeRawChunks: true,
      providerOptions: { friendli: { logprobs: 2 } },
    })
    const parts = await partsOf(result.fullStream)
    const record = h.mock.lastRequest()!
    const body = record.body as Record<string, unknown>
    assert.equal(body.logprobs, true)
    assert.equal(body.top_logprobs, 2)
    const raws = parts.filter((p) => p.type === "raw")
    assert.equal(raws.length, jsonSent(record).length)
    const logprobs = (await result.providerMetadata)?.friendli?.logprobs as Array<{ content: Array<unknown> }>
    const sentLogprobs = jsonSent(record).flatMap((c) =>
      (c.choices as Array<{ index: number; logprobs?: unknown }>).filter((x) => x.index === 0 && x.logprobs != null),
    )
    assert.ok(sentLogprobs.length > 0, "the mock sent logprobs")
    assert.equal(logprobs.length, sentLogprobs.length)
  })
})

describe("generateText", () => {
  it("gives the same text as the server sent, with finish reason and usage", async () => {
    const result = await generateText({ model: h.provider()(MODEL), prompt: "Say something kind", maxOutputTokens: 8 })
    const record = h.mock.lastRequest()!
    assert.equal(result.text, sentText(record))
    assert.equal(result.finishReason, "length")
    assert.equal(result.usage.outputTokens, sentUsage(record).completion_tokens)
  })

  it("runs a completion model on /v1/completions with the prompt's text", async () => {
    const result = await generateText({
      model: h.provider().completion(MODEL),
      system: "You are terse.",
      prompt: "Once upon a time",
      maxOutputTokens: 6,
    })
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/serverless/v1/completions")
    assert.equal((record.body as Record<string, unknown>).prompt, "You are terse.\n\nOnce upon a time")
    assert.equal(result.text, sentText(record))
    assert.equal(result.finishReason, "length")
  })

  it("sends a dedicated model to the dedicated API with the endpoint id as model", async () => {
    const friendli = h.provider(undefined, { baseURL: `${h.server.url}/dedicated`, deployment: "dedicated" })
    const result = await generateText({ model: friendli.dedicated("ep-123"), prompt: "Hi", maxOutputTokens: 3 })
    const record = h.mock.lastRequest()!
    assert.equal(record.path, "/dedicated/v1/chat/completions")
    assert.equal((record.body as Record<string, unknown>).model, "ep-123")
    assert.equal(result.text, sentText(record))
  })
})
