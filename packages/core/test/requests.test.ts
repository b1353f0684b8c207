// The request fields issue #12 listed as missing come from Friendli's description now: the request guards (what the
// client checks before sending) and Schemas accept them, and refuse them with the wrong type.
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Schema from "effect/Schema"
import {
  ChatCompletionRequest,
  CompletionRequest,
  isChatCompletionRequest,
  isCompletionRequest,
  isToolAssistedChatCompletionRequest,
  ToolAssistedChatCompletionRequest,
} from "../src/index.ts"

const both = (
  guard: (u: unknown) => boolean,
  schema: Schema.Codec<unknown, unknown>,
  value: unknown,
  expected: boolean,
): void => {
  assert.equal(guard(value), expected, `guard on ${JSON.stringify(value)}`)
  assert.equal(Schema.is(Schema.toEncoded(schema))(value), expected, `Schema on ${JSON.stringify(value)}`)
}

const messages = [{ role: "user", content: "Hi" }]

describe("chat completion requests", () => {
  const chat = (extra: Record<string, unknown>, expected = true) =>
    both(
      isChatCompletionRequest,
      ChatCompletionRequest as Schema.Codec<unknown, unknown>,
      { messages, ...extra },
      expected,
    )

  it("take the reasoning fields", () => {
    chat({ parse_reasoning: true, include_reasoning: false, reasoning_effort: "high", reasoning_budget: 1024 })
    chat({ chat_template_kwargs: { enable_thinking: true } })
    chat({ reasoning_effort: "enormous" }, false)
    chat({ reasoning_budget: 1.5 }, false)
  })

  it("take the sampling fields the description lists", () => {
    chat({ min_p: 0.1, repetition_penalty: 1.1, logit_bias: { "42": -100 }, min_tokens: 3, eos_token: [2] })
    chat({ xtc_threshold: 0.1, xtc_probability: 0.5 })
    chat({ min_tokens: "3" }, false)
  })

  it("take image, audio and video content parts, and an assistant message that carries its reasoning back", () => {
    chat({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "https://example.com/a.png" } },
            { type: "audio_url", audio_url: { url: "https://example.com/a.wav" } },
            { type: "video_url", video_url: { url: "https://example.com/a.mp4" } },
          ],
        },
        { role: "assistant", content: "A cat.", reasoning_content: "It has whiskers." },
      ],
    })
    chat({ messages: [{ role: "assistant", content: "A cat.", reasoning_content: 1 }] }, false)
  })
})

describe("completion requests", () => {
  const completion = (value: Record<string, unknown>, expected = true) =>
    both(isCompletionRequest, CompletionRequest as Schema.Codec<unknown, unknown>, value, expected)

  it("take a prompt as a list, or tokens, and a response format", () => {
    completion({ prompt: ["Say", "hi"] })
    completion({ tokens: [1, 2, 3] })
    completion({ prompt: "Say hi", response_format: { type: "json_object" } })
    completion({ prompt: 42 }, false)
  })
})

describe("tool-assisted chat completion requests", () => {
  const assisted = (tools: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}, expected = true) =>
    both(
      isToolAssistedChatCompletionRequest,
      ToolAssistedChatCompletionRequest as Schema.Codec<unknown, unknown>,
      { model: "m", messages, tools, ...extra },
      expected,
    )

  it("take the built-in tools linkup:search and file:text with its files, and resume_generation", () => {
    assisted([{ type: "linkup:search" }, { type: "file:text", files: ["file-1"] }, { type: "web:search" }], {
      resume_generation: true,
    })
    assisted([{ type: "file:text" }], {}, false)
    assisted([{ type: "web:everything" }], {}, false)
  })
})
