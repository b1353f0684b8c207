// The provider core (`@friendli-stream/client/provider`), tested once for both AI providers: every finish reason
// Friendli's description names (read from the generated schemas, so that a new one shows here), usage, the
// message mapping and the part state machine.
import assert from "node:assert/strict"
import {
  ChatCompletionChoice,
  ChatCompletionChunkChoice,
  CompletionChoice,
  CompletionChunkChoice,
} from "@friendli-stream/core"
import { describe, it } from "@friendli-stream/test-harness"
import * as SchemaAST from "effect/SchemaAST"
import {
  assistantMessage,
  dataUrlOf,
  type FinishReason,
  finishOf,
  foldDeltas,
  mediaContentOf,
  type Part,
  PartMachine,
  parseResult,
  toolStatusParts,
  usageOf,
  userMessage,
} from "../src/provider/index.ts"

/** The values a `finish_reason` schema admits: its literals, and `null` where it is nullable. */
const valuesOf = (ast: SchemaAST.AST): Array<string | null> => {
  if (SchemaAST.isLiteral(ast)) return typeof ast.literal === "string" ? [ast.literal] : []
  if (SchemaAST.isNull(ast)) return [null]
  if (SchemaAST.isUnion(ast)) return ast.types.flatMap(valuesOf)
  return []
}

const finishReasonsOf = (schema: { readonly ast: SchemaAST.AST }): Array<string | null> => {
  assert.ok(SchemaAST.isObjects(schema.ast))
  const property = schema.ast.propertySignatures.find((p) => p.name === "finish_reason")
  assert.ok(property !== undefined, "the choice schema has a finish_reason")
  return valuesOf(property.type)
}

/** What each of Friendli's finish reasons means to the providers (`"null"` is its streamed "not finished yet"). */
const EXPECTED: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool-calls",
  null: "unknown",
}

describe("finish reasons", () => {
  const described = [
    ...new Set(
      [ChatCompletionChoice, CompletionChoice, ChatCompletionChunkChoice, CompletionChunkChoice].flatMap(
        finishReasonsOf,
      ),
    ),
  ]

  it("knows every finish reason Friendli's description names, and null", () => {
    assert.ok(described.includes(null), `the chunk choices' finish_reason is nullable: ${JSON.stringify(described)}`)
    for (const value of described) {
      if (value === null) continue
      assert.ok(Object.hasOwn(EXPECTED, value), `a finish reason the test does not know yet: ${value}`)
      assert.deepEqual(finishOf(value), { unified: EXPECTED[value], raw: value })
    }
    assert.deepEqual(finishOf(null), { unified: "unknown", raw: undefined })
    assert.deepEqual(finishOf(undefined), { unified: "unknown", raw: undefined })
  })

  it("reads an OpenAI-compatible server's content_filter as content-filter", () => {
    assert.deepEqual(finishOf("content_filter"), { unified: "content-filter", raw: "content_filter" })
  })

  it("keeps a reason no description names as other, with the server's word", () => {
    assert.deepEqual(finishOf("eos_token"), { unified: "other", raw: "eos_token" })
    assert.deepEqual(finishOf("toString"), { unified: "other", raw: "toString" })
  })
})

describe("usage", () => {
  it("reads the counts and details Friendli reports, and derives uncached input and text output from them", () => {
    const raw = {
      prompt_tokens: 10,
      completion_tokens: 7,
      total_tokens: 17,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 5 },
    }
    assert.deepEqual(usageOf(raw), {
      inputTokens: 10,
      cachedInputTokens: 4,
      uncachedInputTokens: 6,
      outputTokens: 7,
      reasoningTokens: 5,
      textOutputTokens: 2,
      raw,
    })
  })

  it("leaves a derived count undefined when the detail it needs was not reported", () => {
    const usage = usageOf({ prompt_tokens: 3, completion_tokens: 2 })
    assert.equal(usage.inputTokens, 3)
    assert.equal(usage.outputTokens, 2)
    assert.equal(usage.uncachedInputTokens, undefined)
    assert.equal(usage.textOutputTokens, undefined)
  })

  it("reads no usage (null, absent, not an object) as no counts", () => {
    for (const raw of [null, undefined, "12", [1]]) {
      const usage = usageOf(raw)
      assert.equal(usage.inputTokens, undefined)
      assert.equal(usage.outputTokens, undefined)
      assert.equal(usage.raw, undefined)
    }
  })
})

describe("messages", () => {
  it("folds an assistant turn into one message with reasoning_content and the client's tool calls", () => {
    const calls = {
      c1: { id: "c1", name: "weather", arguments: '{"city":"Seoul"}', providerExecuted: false },
      b1: { id: "b1", name: "web:search", arguments: "{}", providerExecuted: true },
    }
    const parts = [
      { type: "reasoning", text: "Think" },
      { type: "reasoning", text: "ing." },
      { type: "tool-call", id: "c1" as const },
      { type: "tool-call", id: "b1" as const },
      { type: "file" },
    ]
    const message = assistantMessage(parts, (part) => (part.type === "tool-call" ? calls[part.id ?? "c1"] : undefined))
    assert.deepEqual(message, {
      role: "assistant",
      content: null,
      reasoning_content: "Thinking.",
      tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Seoul"}' } }],
    })
  })

  it("sends a user turn of text only as one string, and media by URL", () => {
    assert.deepEqual(
      userMessage([
        { type: "text", text: "Hi " },
        { type: "text", text: "there" },
      ]),
      {
        role: "user",
        content: "Hi there",
      },
    )
    const image = mediaContentOf("image/png", dataUrlOf("image/png", new Uint8Array([1, 2, 3])))
    assert.deepEqual(image, { type: "image_url", image_url: { url: "data:image/png;base64,AQID" } })
    assert.equal(dataUrlOf("audio", "AAAA"), "data:audio/*;base64,AAAA")
    assert.equal(mediaContentOf("application/pdf", "https://example.com/a.pdf"), undefined)
  })
})

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: "r1",
  model: "m",
  created: 1_700_000_000,
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
})

describe("the part state machine", () => {
  it("closes reasoning before text starts, and streams a tool call's input before one tool-call part", () => {
    const machine = new PartMachine("chat")
    const parts: Array<Part> = [
      ...machine.chunk(chunk({ reasoning_content: "Hmm" })),
      ...machine.chunk(chunk({ content: "Hi" })),
      ...machine.chunk(chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a"' } }] })),
      ...machine.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: ":1}" } }] }, "tool_calls")),
      ...machine.chunk(chunk({}, null, { choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } })),
      ...machine.finish(),
    ]
    assert.deepEqual(
      parts.map((p) => p.type),
      [
        "response-metadata",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "text-start",
        "text-delta",
        "tool-input-start",
        "tool-input-delta",
        "tool-input-delta",
        "tool-input-end",
        "tool-call",
        "text-end",
        "finish",
      ],
    )
    const call = parts.find((p) => p.type === "tool-call")
    assert.deepEqual(call, { type: "tool-call", id: "c1", name: "f", input: '{"a":1}', providerExecuted: false })
    const finish = parts.at(-1)
    assert.ok(finish?.type === "finish")
    assert.deepEqual(finish.finish, { unified: "tool-calls", raw: "tool_calls" })
    assert.equal(finish.usage.outputTokens, 2)
  })

  it("finishes a stream that gave no finish reason as unknown", () => {
    const machine = new PartMachine("completion")
    machine.chunk({ choices: [{ index: 0, text: "a" }] })
    const finish = machine.finish().at(-1)
    assert.ok(finish?.type === "finish")
    assert.deepEqual(finish.finish, { unified: "unknown", raw: undefined })
  })

  it("makes a built-in tool's statuses a provider-executed call and its result, under the caller's name", () => {
    const names = new Map([["linkup:search", "search"]])
    const status = { tool_call_id: "t1", name: "linkup:search", parameters: [{ name: "query", value: "sea" }] }
    assert.deepEqual(toolStatusParts({ ...status, status: "STARTED" }, names), [
      { type: "tool-call", id: "t1", name: "search", input: '{"query":"sea"}', providerExecuted: true },
    ])
    assert.deepEqual(toolStatusParts({ ...status, status: "UPDATING" }, names), [])
    assert.deepEqual(toolStatusParts({ ...status, status: "ENDED", result: '{"hits":2}' }, names), [
      { type: "tool-result", id: "t1", name: "search", result: { hits: 2 }, isError: false },
    ])
    assert.deepEqual(toolStatusParts({ ...status, status: "ERRORED", error: { type: "E", msg: "no" } }, names), [
      { type: "tool-result", id: "t1", name: "search", result: { type: "E", message: "no" }, isError: true },
    ])
  })

  it("reads a built-in tool's result as JSON where it is JSON, its text where not, and null when there is none", () => {
    assert.deepEqual(parseResult("[1,2]"), [1, 2])
    assert.equal(parseResult("plain words"), "plain words")
    assert.equal(parseResult(null), null)
    assert.equal(parseResult(undefined), null)
  })

  it("folds a stream's deltas into one text and one reasoning piece a run, keeping the parts asked for in place", () => {
    const parts = [
      { type: "reasoning-delta", delta: "a" },
      { type: "reasoning-delta", delta: "b" },
      { type: "text-delta", delta: "c" },
      { type: "tool-call", id: "x" },
      { type: "text-delta", delta: "d" },
      { type: "text-end" },
    ]
    const folded = foldDeltas(
      parts,
      (p) => p.type === "tool-call",
      (type, text) => ({ type, text }),
    )
    assert.deepEqual(folded, [
      { type: "reasoning", text: "ab" },
      { type: "text", text: "c" },
      { type: "tool-call", id: "x" },
      { type: "text", text: "d" },
    ])
  })
})
