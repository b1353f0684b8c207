import assert from "node:assert/strict"
import { FriendliClient } from "@friendli-stream/client"
import { StreamMetrics } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import { chatRequest, collect } from "@friendli-stream/test-harness/fixtures"
import { jsonSent } from "@friendli-stream/testing"
import * as Effect from "effect/Effect"
import { type RequestRecord, TOKEN } from "../mock.ts"
import { type Context, lastApiRequest } from "../support.ts"

const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
  },
}
const time = { type: "function" as const, function: { name: "get_time", parameters: { type: "object" } } }

/** A reasoning model asked a question it answers with two function calls. */
const REQUEST = chatRequest("What is the weather in Paris, and the time there? Use get_weather and get_time.", {
  tools: [weather, time],
  reasoning_effort: "low",
  max_tokens: 256,
})

interface RawToolCall {
  readonly index: number
  readonly id?: string | null
  readonly type?: string
  readonly function: { readonly name?: string | null; readonly arguments: string }
}
interface RawDelta {
  readonly role?: string | null
  readonly content?: string | null
  readonly reasoning_content?: string | null
  readonly tool_calls?: ReadonlyArray<RawToolCall> | null
}

/** The deltas of choice 0 the mock sent, as JSON on the wire. */
const sentDeltas = (record: RequestRecord): ReadonlyArray<RawDelta> =>
  jsonSent(record).flatMap((chunk) =>
    (chunk.choices as ReadonlyArray<{ index: number; delta: RawDelta }>)
      .filter((c) => c.index === 0)
      .map((c) => c.delta),
  )

/** What the wire says the message is: reasoning, content, and each call's id and name (first delta) and arguments. */
const wireMessage = (deltas: ReadonlyArray<RawDelta>) => {
  const calls: Array<{ id: string; name: string; arguments: string }> = []
  for (const d of deltas) {
    for (const t of d.tool_calls ?? []) {
      if (t.id != null) calls[t.index] = { id: t.id, name: t.function.name ?? "", arguments: "" }
      calls[t.index]!.arguments += t.function.arguments
    }
  }
  return {
    reasoning: deltas.map((d) => d.reasoning_content ?? "").join(""),
    content: deltas.map((d) => d.content ?? "").join(""),
    calls,
    continuations: deltas.flatMap((d) => (d.tool_calls ?? []).filter((t) => t.id === null)),
  }
}

export const reasoningToolTests = (c: Context): void =>
  describe("a reasoning model calling tools, decoded strictly", () => {
    it("accumulates reasoning_content, content and tool calls from deltas whose ids are null after the first", async () => {
      const stream = c.client().chat.stream(REQUEST, { validation: "strict" })
      const { items, error } = await collect(stream)
      assert.equal(error, undefined)
      const completion = await stream.finalCompletion()
      const record = await c.mock().waitForSettled((await lastApiRequest(c.mock())).id)
      assert.equal(record.outcome, "completed")
      const wire = wireMessage(sentDeltas(record))

      // the wire really had Friendli's continuation deltas, and the strict decoder kept them as they were
      assert.ok(wire.continuations.length >= 2, `${wire.continuations.length} continuation deltas with id null`)
      for (const t of wire.continuations) {
        assert.deepEqual([t.type, t.function.name], ["function", null], JSON.stringify(t))
      }
      const decodedNulls = items.flatMap((chunk) =>
        chunk.choices.flatMap((x) => (x.delta.tool_calls ?? []).filter((t) => t.id === null)),
      )
      assert.equal(decodedNulls.length, wire.continuations.length)

      const choice = completion.choices[0]!
      assert.equal(choice.finish_reason, "tool_calls")
      assert.ok((choice.message.reasoning_content ?? "").length > 0, "no reasoning_content")
      assert.equal(choice.message.reasoning_content, wire.reasoning)
      assert.ok((choice.message.content ?? "").length > 0, "no content before the calls")
      assert.equal(choice.message.content, wire.content)
      assert.deepEqual(
        choice.message.tool_calls.map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments })),
        wire.calls,
      )
      assert.deepEqual(
        choice.message.tool_calls.map((t) => t.function.name),
        ["get_weather", "get_time"],
      )
      assert.equal(new Set(choice.message.tool_calls.map((t) => t.id)).size, 2, "two distinct call ids")
      for (const t of choice.message.tool_calls) {
        assert.match(t.id ?? "", /^call_/)
        const args = JSON.parse(t.function.arguments) as unknown
        assert.equal(typeof args, "object", t.function.arguments)
      }
    })

    it("accumulates the stream into what the non-streamed request answers", async () => {
      const client = c.client()
      const streamed = (await client.chat.stream(REQUEST).finalCompletion()).choices[0]!
      const whole = (await client.chat.create(REQUEST)).choices[0]!
      assert.equal(streamed.message.reasoning_content, whole.message.reasoning_content)
      assert.equal(streamed.message.content, whole.message.content)
      assert.deepEqual(
        streamed.message.tool_calls.map((t) => [t.id, t.function.name, t.function.arguments]),
        (whole.message.tool_calls ?? []).map((t) => [t.id, t.function.name, t.function.arguments]),
      )
      assert.equal(streamed.finish_reason, whole.finish_reason)
    })

    it("reports reasoning and answer tokens and their first times in StreamMetrics", async () => {
      const metrics = await Effect.runPromise(
        Effect.gen(function* () {
          const client = yield* FriendliClient.FriendliClient
          return yield* StreamMetrics.measure(client.chat.stream(REQUEST, { validation: "strict" }))
        }).pipe(Effect.provide(c.adapter.layer({ token: TOKEN, baseURL: c.baseURL() }))),
      )
      const deltas = sentDeltas(await c.mock().waitForSettled((await lastApiRequest(c.mock())).id))
      const reasoning = deltas.filter((d) => (d.reasoning_content ?? "").length > 0).length
      const answer = deltas.filter((d) => (d.content ?? "").length > 0 || d.tool_calls != null).length
      const summary = `reasoning ${metrics.reasoningTokens} tokens from ${metrics.timeToFirstReasoningTokenMs} ms, answer ${metrics.answerTokens} tokens from ${metrics.timeToFirstAnswerTokenMs} ms`
      console.log(`measured: ${c.adapter.name}: ${summary}`)
      assert.ok(reasoning > 0 && answer > 0, `the mock sent ${reasoning} reasoning and ${answer} answer deltas`)
      assert.equal(metrics.reasoningTokens, reasoning, summary)
      assert.equal(metrics.answerTokens, answer, summary)
      assert.equal(metrics.tokens, reasoning + answer)
      const firstReasoning = metrics.timeToFirstReasoningTokenMs
      const firstAnswer = metrics.timeToFirstAnswerTokenMs
      assert.ok(firstReasoning !== undefined && firstAnswer !== undefined, summary)
      assert.ok(firstReasoning <= firstAnswer, `the reasoning comes first: ${summary}`)
      assert.equal(metrics.timeToFirstTokenMs, firstReasoning)
    })
  })
