import assert from "node:assert/strict"
import { ChatCompletionRequest, CompletionRequestWithPrompt } from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import { chatBody, completionsBody, newMock, post } from "./helpers.ts"

const COMPLETIONS = "/serverless/v1/completions"
const CHAT = "/serverless/v1/chat/completions"

interface Detail {
  detail: Array<{ loc: Array<string | number>; msg: string; type: string; input?: unknown }>
}

/** Posts a body and returns the `loc` of every 422 issue. */
const locs = async (path: string, body: unknown): Promise<Array<string>> => {
  const res = await post(newMock(), path, body)
  assert.equal(res.status, 422, `expected 422 for ${JSON.stringify(body)}`)
  const json = (await res.json()) as Detail
  for (const d of json.detail) {
    assert.equal(typeof d.msg, "string")
    assert.equal(typeof d.type, "string")
  }
  return json.detail.map((d) => d.loc.join("."))
}

/** The top-level fields a 422 names (none when the mock accepts the body). */
const fields = async (path: string, body: unknown): Promise<Array<string>> => {
  const res = await post(newMock(), path, body)
  if (res.status === 200) {
    await res.body?.cancel()
    return []
  }
  assert.equal(res.status, 422, await res.clone().text())
  const json = (await res.json()) as Detail
  return [...new Set(json.detail.map((d) => String(d.loc[1])))].sort()
}

/** The top-level fields a generated request Schema refuses in a body. */
const schemaFields = (schema: typeof CompletionRequestWithPrompt | typeof ChatCompletionRequest, body: unknown) => {
  const result = SchemaParser.decodeUnknownResult(schema, { errors: "all", onExcessProperty: "ignore" })(body)
  if (result._tag === "Success") return []
  const issues = SchemaIssue.makeFormatterStandardSchemaV1()(result.failure).issues
  return [...new Set(issues.map((i) => String(i.path?.[0])))].sort()
}

describe("authentication", () => {
  it("answers 401 with a message body when the bearer token is missing", async () => {
    const res = await post(newMock(), COMPLETIONS, completionsBody(), { token: null })
    assert.equal(res.status, 401)
    const body = (await res.json()) as { message: string }
    assert.deepEqual(Object.keys(body), ["message"])
    assert.match(body.message, /bearer token/i)
    assert.equal(res.headers.get("x-request-id"), res.headers.get("x-mock-request-id"))
  })

  it("answers 401 when the header is not a bearer token", async () => {
    const res = await post(newMock(), CHAT, chatBody(), { token: null, headers: { authorization: "Basic abc" } })
    assert.equal(res.status, 401)
  })

  it("accepts only the configured tokens when tokens are given", async () => {
    const mock = newMock({ tokens: ["flp_good"] })
    assert.equal((await post(mock, COMPLETIONS, completionsBody(), { token: "flp_bad" })).status, 401)
    const ok = await post(mock, COMPLETIONS, completionsBody(), { token: "flp_good" })
    assert.equal(ok.status, 200)
    await ok.body?.cancel()
  })

  it("checks the token on dedicated paths but not on a container", async () => {
    const mock = newMock()
    assert.equal(
      (await post(mock, "/dedicated/v1/completions", completionsBody({ model: "ep" }), { token: null })).status,
      401,
    )
    const res = await post(mock, "/v1/completions", completionsBody(), { token: null })
    assert.equal(res.status, 200)
    await res.body?.cancel()
  })

  it("records the X-Friendli-Team header", async () => {
    const mock = newMock()
    const res = await post(mock, COMPLETIONS, completionsBody(), { headers: { "X-Friendli-Team": "team-42" } })
    await res.body?.cancel()
    assert.equal(mock.lastRequest()?.headers["x-friendli-team"], "team-42")
  })
})

describe("request validation", () => {
  it("answers 422 naming a missing model on serverless and dedicated", async () => {
    assert.deepEqual(await locs(COMPLETIONS, { prompt: "x" }), ["body.model"])
    assert.deepEqual(await locs("/dedicated/v1/chat/completions", { messages: [{ role: "user", content: "x" }] }), [
      "body.model",
    ])
  })

  it("answers 422 for a dedicated model that is not ENDPOINT_ID or ENDPOINT_ID:ADAPTER_ROUTE", async () => {
    assert.deepEqual(await locs("/dedicated/v1/completions", { model: "a:b:c", prompt: "x" }), ["body.model"])
  })

  it("answers 422 naming each completions field of the wrong type", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ max_tokens: 1.5 }, "body.max_tokens"],
      [{ n: "two" }, "body.n"],
      [{ logprobs: true }, "body.logprobs"],
      [{ temperature: "hot" }, "body.temperature"],
      [{ stop: "x" }, "body.stop"],
      [{ stop: ["ok", 3] }, "body.stop.1"],
      [{ seed: "7" }, "body.seed"],
      [{ stream: "yes" }, "body.stream"],
      [{ stream_options: { include_usage: "yes" } }, "body.stream_options.include_usage"],
    ]
    for (const [extra, loc] of cases)
      assert.deepEqual(await locs(COMPLETIONS, completionsBody(extra)), [loc], JSON.stringify(extra))
  })

  it("refuses what the mock model cannot do, and fields that need each other, naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ n: 17 }, "body.n"],
      [{ max_tokens: 5000 }, "body.max_tokens"],
      [{ logprobs: 21 }, "body.logprobs"],
      [{ min_tokens: 9, max_tokens: 3 }, "body.min_tokens"],
      [{ stream: false, stream_options: { include_usage: true } }, "body.stream_options"],
      [{ seed: [1, 2] }, "body.seed"],
    ]
    for (const [extra, loc] of cases)
      assert.deepEqual(await locs(COMPLETIONS, completionsBody(extra)), [loc], JSON.stringify(extra))
  })

  it("refuses n below 1 with a 422 naming n, as it refuses n above 16", async () => {
    for (const n of [0, -1]) {
      for (const [path, body] of [
        [COMPLETIONS, completionsBody({ n })],
        [CHAT, chatBody({ n })],
      ] as const) {
        const res = await post(newMock(), path, body)
        assert.equal(res.status, 422, `n: ${n} on ${path}`)
        const { detail } = (await res.json()) as Detail
        assert.deepEqual(
          detail.map((d) => [d.loc.join("."), d.type, d.input]),
          [["body.n", "greater_than_equal", n]],
        )
        assert.match(detail[0]!.msg, /greater than or equal to 1/)
      }
    }
  })

  it("agrees with the generated request Schema on every bound it states", async () => {
    // whatever minimum and maximum the Schemas of @friendli-stream/core carry, the mock refuses exactly those fields
    const completions: ReadonlyArray<Record<string, unknown>> = [
      { max_tokens: 0 },
      { logprobs: -1 },
      { temperature: -1 },
      { top_p: 1.5 },
      { top_k: -1 },
      { frequency_penalty: 3 },
      { presence_penalty: -2.5 },
      { repetition_penalty: 0 },
      { min_tokens: -1 },
    ]
    for (const extra of completions) {
      const body = completionsBody(extra)
      assert.deepEqual(
        await fields(COMPLETIONS, body),
        schemaFields(CompletionRequestWithPrompt, body),
        JSON.stringify(extra),
      )
    }
    for (const extra of [{ top_logprobs: -1, logprobs: true }, { temperature: -0.5 }, { max_tokens: 0 }]) {
      const body = chatBody(extra)
      assert.deepEqual(await fields(CHAT, body), schemaFields(ChatCompletionRequest, body), JSON.stringify(extra))
    }
  })

  it("answers 422 when neither prompt nor tokens is given, or both", async () => {
    assert.deepEqual(await locs(COMPLETIONS, { model: "m" }), ["body.prompt"])
    assert.deepEqual(await locs(COMPLETIONS, { model: "m", prompt: "x", tokens: [1] }), ["body.prompt"])
    assert.deepEqual(await locs(COMPLETIONS, { model: "m", tokens: [1, "x"] }), ["body.tokens.1"])
  })

  it("answers 422 naming each bad chat field", async () => {
    // the description requires a function's parameters (a JSON Schema object)
    const parameters = { type: "object", properties: {} }
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ messages: [] }, "body.messages"],
      [{ messages: "hi" }, "body.messages"],
      [{ messages: [{ role: "robot", content: "x" }] }, "body.messages.0"],
      [{ messages: [{ role: "user" }] }, "body.messages.0.content"],
      [{ messages: [{ role: "tool", content: "x" }] }, "body.messages.0.tool_call_id"],
      [{ logprobs: "yes" }, "body.logprobs"],
      [{ top_logprobs: 2 }, "body.top_logprobs"],
      [{ logprobs: true, top_logprobs: 21 }, "body.top_logprobs"],
      [{ tools: [{ type: "function" }] }, "body.tools.0.function"],
      [{ tools: [{ type: "function", function: { name: "f" } }] }, "body.tools.0.function.parameters"],
      [{ tools: [{ type: "function", function: { name: "bad name", parameters } }] }, "body.tools.0.function.name"],
      [{ tools: [{ type: "function", function: { name: "f".repeat(65), parameters } }] }, "body.tools.0.function.name"],
      [{ tool_choice: "sometimes" }, "body.tool_choice"],
      [{ tool_choice: { type: "function", function: { name: "g.h" } } }, "body.tool_choice.function.name"],
      [
        {
          tools: [{ type: "function", function: { name: "f", parameters } }],
          tool_choice: { type: "function", function: { name: "g" } },
        },
        "body.tool_choice.function.name",
      ],
      [{ top_p: 0 }, "body.top_p"],
      [{ frequency_penalty: 2.5 }, "body.frequency_penalty"],
      [{ presence_penalty: -2.5 }, "body.presence_penalty"],
      [{ min_p: 1.5 }, "body.min_p"],
      [{ top_k: -1 }, "body.top_k"],
      [{ repetition_penalty: 0 }, "body.repetition_penalty"],
      [{ reasoning_budget: 0 }, "body.reasoning_budget"],
      [{ tool_choice: "required" }, "body.tool_choice"],
      [{ response_format: { type: "json_object", schema: "{" } }, "body.response_format.schema"],
      [{ parallel_tool_calls: 1 }, "body.parallel_tool_calls"],
    ]
    for (const [extra, loc] of cases) assert.deepEqual(await locs(CHAT, chatBody(extra)), [loc], JSON.stringify(extra))
  })

  it("accepts every sampling option within its range", async () => {
    const mock = newMock()
    const sampling = {
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
      repetition_penalty: 1.1,
      min_tokens: 2,
      max_tokens: 4,
      stop: [],
      seed: [1],
    }
    for (const [path, body] of [
      [COMPLETIONS, completionsBody(sampling)],
      [CHAT, chatBody(sampling)],
    ] as const) {
      const res = await post(mock, path, body)
      assert.equal(res.status, 200, await res.clone().text())
      await res.body?.cancel()
    }
  })

  it("accepts system messages, content parts, and null values as absent", async () => {
    const body = chatBody({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Hello" }] },
      ],
      max_tokens: null,
      n: null,
      tools: null,
      stream_options: null,
    })
    const res = await post(newMock(), CHAT, body)
    assert.equal(res.status, 200, await res.clone().text())
    await res.body?.cancel()
  })

  it("answers 422 for a regex response_format without a pattern, and plain text with one", async () => {
    assert.deepEqual(await locs(CHAT, chatBody({ response_format: { type: "regex" } })), [
      "body.response_format.schema",
    ])
    const res = await post(newMock(), CHAT, chatBody({ response_format: { type: "regex", schema: "[a-z]+" } }))
    assert.equal(res.status, 200)
    await res.body?.cancel()
  })

  it("lists every invalid field at once, one issue per field", async () => {
    const body = chatBody({ n: 17, max_tokens: 1.5, messages: [{ role: "user", content: 3 }], logprobs: "no" })
    assert.deepEqual((await locs(CHAT, body)).sort(), [
      "body.logprobs",
      "body.max_tokens",
      "body.messages.0.content",
      "body.n",
    ])
  })

  it("answers 422 for a body that is not JSON or not an object", async () => {
    assert.deepEqual(await locs(COMPLETIONS, "{not json"), ["body.0"])
    assert.deepEqual(await locs(COMPLETIONS, [1, 2]), ["body"])
  })
})

describe("routing", () => {
  it("answers 404 with a detail body for a path the API does not have", async () => {
    const res = await post(newMock(), "/serverless/v2/completions", completionsBody())
    assert.equal(res.status, 404)
    assert.deepEqual(await res.json(), { detail: "Not Found" })
  })

  it("answers 405 for a known path with another method", async () => {
    const res = await post(newMock(), COMPLETIONS, null, { method: "GET" })
    assert.equal(res.status, 405)
    assert.equal(res.headers.get("allow"), "POST")
  })

  it("answers 404 with a message body for a model it was told not to know", async () => {
    const mock = newMock({ models: ["known-model", "ep1"] })
    const res = await post(mock, COMPLETIONS, completionsBody({ model: "other" }))
    assert.equal(res.status, 404)
    assert.match(((await res.json()) as { message: string }).message, /other/)
    const ok = await post(mock, "/dedicated/v1/completions", completionsBody({ model: "ep1:adapter" }))
    assert.equal(ok.status, 200)
    await ok.body?.cancel()
  })

  it("tolerates a trailing slash", async () => {
    const res = await post(newMock(), `${COMPLETIONS}/`, completionsBody())
    assert.equal(res.status, 200)
    await res.body?.cancel()
  })
})
