// providerOptions.friendli and the call settings, as the mock received them; the model list.
import assert from "node:assert/strict"
import { APICallError } from "@ai-sdk/provider"
import { InvalidRequestError, InvalidResponseError } from "@friendli-stream/client"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { generateText } from "ai"
import { createFriendli } from "../src/index.ts"
import { type Harness, MODEL, startMock, TOKEN } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

describe("request fields", () => {
  it("sends every providerOptions.friendli field and the call settings under Friendli's names", async () => {
    const result = await generateText({
      model: h.provider()(MODEL),
      prompt: "Hi",
      maxOutputTokens: 40,
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      seed: 7,
      stopSequences: ["\n\n"],
      frequencyPenalty: 0.1,
      presencePenalty: 0.2,
      providerOptions: {
        friendli: {
          reasoningEffort: "medium",
          reasoningBudget: 30,
          includeReasoning: false,
          parseReasoning: true,
          n: 1,
          minP: 0.05,
          repetitionPenalty: 1.1,
          logitBias: { "42": -100 },
          chatTemplateKwargs: { enable_thinking: true },
          parallelToolCalls: false,
        },
      },
    })
    const body = h.mock.lastRequest()!.body as Record<string, unknown>
    assert.deepEqual(
      {
        max_tokens: body.max_tokens,
        temperature: body.temperature,
        top_p: body.top_p,
        top_k: body.top_k,
        seed: body.seed,
        stop: body.stop,
        frequency_penalty: body.frequency_penalty,
        presence_penalty: body.presence_penalty,
        reasoning_effort: body.reasoning_effort,
        reasoning_budget: body.reasoning_budget,
        include_reasoning: body.include_reasoning,
        parse_reasoning: body.parse_reasoning,
        n: body.n,
        min_p: body.min_p,
        repetition_penalty: body.repetition_penalty,
        logit_bias: body.logit_bias,
        chat_template_kwargs: body.chat_template_kwargs,
        parallel_tool_calls: body.parallel_tool_calls,
        stream: body.stream,
        stream_options: body.stream_options,
      },
      {
        max_tokens: 40,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        seed: 7,
        stop: ["\n\n"],
        frequency_penalty: 0.1,
        presence_penalty: 0.2,
        reasoning_effort: "medium",
        reasoning_budget: 30,
        include_reasoning: false,
        parse_reasoning: true,
        n: 1,
        min_p: 0.05,
        repetition_penalty: 1.1,
        logit_bias: { "42": -100 },
        chat_template_kwargs: { enable_thinking: true },
        parallel_tool_calls: false,
        stream: true,
        stream_options: { include_usage: true },
      },
    )
    assert.deepEqual(result.warnings, [])
  })

  it("sends resumeGeneration with built-in tools, and warns that a plain chat does not take it", async () => {
    const friendli = h.provider()
    await generateText({
      model: friendli(MODEL),
      tools: { calc: friendli.tools.calculator() },
      prompt: "What is 2 + 2?",
      maxOutputTokens: 5,
      providerOptions: { friendli: { resumeGeneration: true } },
    })
    assert.equal((h.mock.lastRequest()!.body as Record<string, unknown>).resume_generation, true)
    const plain = await generateText({
      model: friendli(MODEL),
      prompt: "Hi",
      maxOutputTokens: 3,
      providerOptions: { friendli: { resumeGeneration: true } },
    })
    assert.equal("resume_generation" in (h.mock.lastRequest()!.body as object), false)
    assert.deepEqual(
      plain.warnings?.map((w) => ("feature" in w ? w.feature : w.type)),
      ["providerOptions.friendli.resumeGeneration"],
    )
  })

  it("sends the team, the token and extra headers, the call's headers too", async () => {
    const friendli = h.provider(undefined, { teamId: "team-1", headers: { "x-app": "demo" } })
    await generateText({ model: friendli(MODEL), prompt: "Hi", maxOutputTokens: 2, headers: { "x-call": "1" } })
    const headers = h.mock.lastRequest()!.headers
    assert.equal(headers.authorization, `Bearer ${TOKEN}`)
    assert.equal(headers["x-friendli-team"], "team-1")
    assert.equal(headers["x-app"], "demo")
    assert.equal(headers["x-call"], "1")
  })

  it("takes the token as apiKey, as every AI SDK provider names it, and a baseURL ending in /v1", async () => {
    const friendli = createFriendli({ apiKey: TOKEN, baseURL: `${h.server.url}/serverless/v1` })
    await generateText({ model: friendli(MODEL), prompt: "Hi", maxOutputTokens: 2 })
    const request = h.mock.lastRequest()!
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`)
    assert.equal(request.path, "/serverless/v1/chat/completions")
  })

  it("sends images as image_url parts", async () => {
    await generateText({
      model: h.provider()(MODEL),
      maxOutputTokens: 2,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "file", mediaType: "image/png", data: new Uint8Array([137, 80, 78, 71]) },
          ],
        },
      ],
    })
    const body = h.mock.lastRequest()!.body as { messages: Array<{ content: unknown }> }
    assert.deepEqual(body.messages[0]!.content, [
      { type: "text", text: "What is this?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw==" } },
    ])
  })
})

describe("models()", () => {
  it("lists the mock's GET /serverless/v1/models through the client, with the provider's token", async () => {
    const direct = (await (await fetch(`${h.server.url}/serverless/v1/models`)).json()) as {
      data: Array<{ id: string }>
    }
    const before = h.mock.requests.length
    const models = await h.provider().models()
    assert.ok(direct.data.length > 0)
    assert.deepEqual(
      models.map((m) => m.id),
      direct.data.map((m) => m.id),
    )
    // `created` is the mock's clock at each request, and the two lists were asked for at different times (a second
    // may pass between them): everything else must be equal, and `created` a time in seconds in both.
    const untimed = (list: ReadonlyArray<object>) =>
      list.map((m) => Object.fromEntries(Object.entries(m).filter(([key]) => key !== "created")))
    assert.deepEqual(untimed(models), untimed(direct.data))
    for (const m of [...models, ...direct.data] as Array<{ created?: unknown }>) {
      assert.ok(typeof m.created === "number" && Number.isInteger(m.created), `created: ${String(m.created)}`)
    }
    const records = h.mock.requests.slice(before)
    assert.deepEqual(
      records.map((r) => [r.method, r.path, r.api, r.status]),
      [["GET", "/serverless/v1/models", "models", 200]],
    )
    assert.equal(records[0]!.headers.authorization, `Bearer ${TOKEN}`)
  })

  it("goes to Friendli's serverless URL through the provider's fetch by default", async () => {
    const seen: Array<{ url: string; authorization: string | null }> = []
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init)
      seen.push({ url: request.url, authorization: request.headers.get("authorization") })
      return new Response(JSON.stringify({ data: [] }), { headers: { "content-type": "application/json" } })
    }
    const models = await createFriendli({ token: TOKEN, fetch }).models()
    assert.deepEqual(seen, [{ url: "https://api.friendli.ai/serverless/v1/models", authorization: `Bearer ${TOKEN}` }])
    assert.deepEqual(models, [])
  })

  it("an HTTP error is an APICallError with isRetryable from our typed error", async () => {
    const error = await h
      .provider("status:503")
      .models()
      .then(
        () => assert.fail("a 503 must fail"),
        (e: unknown) => e,
      )
    assert.ok(APICallError.isInstance(error), String(error))
    assert.equal(error.statusCode, 503)
    assert.equal(error.isRetryable, true)
  })

  it("refuses a body that is not a model list with InvalidResponseError saying what was wrong", async () => {
    const fetch = async () => new Response(JSON.stringify({ data: [{ id: 1 }] }), { status: 200 })
    const friendli = createFriendli({ token: TOKEN, fetch })
    await assert.rejects(friendli.models(), (e: unknown) => {
      assert.ok(e instanceof InvalidResponseError, String(e))
      assert.equal(e.reason, "SchemaMismatch")
      assert.match(e.message, /id/)
      return true
    })
  })

  it("a dedicated provider refuses with InvalidRequestError and sends nothing: the list is serverless only", async () => {
    const before = h.mock.requests.length
    const friendli = createFriendli({ token: TOKEN, deployment: "dedicated", baseURL: `${h.server.url}/dedicated` })
    await assert.rejects(
      friendli.models(),
      (e: unknown) => e instanceof InvalidRequestError && /serverless/.test(e.message),
    )
    assert.equal(h.mock.requests.length, before)
  })
})
