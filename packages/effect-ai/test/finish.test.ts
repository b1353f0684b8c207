// The finish reason effect/ai reports for each finish_reason Friendli's description allows, served by a hand-written
// stream (the client's fetch): the provider core's mapping (`@friendli-stream/client/provider`) seen end to end.
import assert from "node:assert/strict"
import { FriendliClient } from "@friendli-stream/client"
import { describe, it } from "@friendli-stream/test-harness"
import * as LanguageModel from "effect/ai/LanguageModel"
import type * as AiResponse from "effect/ai/Response"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { FriendliLanguageModel } from "../src/index.ts"

const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({
    id: "gen-1",
    object: "chat.completion.chunk",
    created: 1733382157,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`

/** The finish part of a stream whose server sends "Hi" and then a last chunk with this `finish_reason`. */
const finishOf = async (finish: string | null): Promise<AiResponse.FinishPart> => {
  const body = `${chunk({ content: "Hi" }, null)}${chunk({}, finish)}data: [DONE]\n\n`
  const fetch = async () => new Response(body, { headers: { "content-type": "text/event-stream" } })
  const model = FriendliLanguageModel.layer({ model: "m" }).pipe(
    Layer.provide(FriendliClient.layer({ token: "flp_t", baseURL: "http://127.0.0.1:9", maxRetries: 0 })),
    Layer.provide(FriendliClient.fetchHttpClient(fetch)),
  )
  const parts = await Effect.runPromise(
    LanguageModel.streamText({ prompt: "Hi" }).pipe(Stream.runCollect, Effect.provide(model)),
  )
  const part = parts.find((p): p is AiResponse.FinishPart => p.type === "finish")
  assert.ok(part !== undefined, `a finish part among ${parts.map((p) => p.type).join(",")}`)
  return part
}

describe("finish reasons", () => {
  it('reports Friendli\'s stop, length and tool_calls, and a stream that ends with "null" or null as unknown', async () => {
    const cases: ReadonlyArray<readonly [string | null, AiResponse.FinishReason]> = [
      ["stop", "stop"],
      ["length", "length"],
      ["tool_calls", "tool-calls"],
      ["null", "unknown"],
      [null, "unknown"],
    ]
    for (const [finish, reason] of cases) {
      assert.equal((await finishOf(finish)).reason, reason, `finish_reason ${JSON.stringify(finish)}`)
    }
  })
})
