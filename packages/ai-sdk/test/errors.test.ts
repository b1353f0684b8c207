// Failures through the real `ai` package against the mock: a cut stream and an in-stream error end in an error
// part and a failed stream (never a clean finish); HTTP errors are APICallErrors the AI SDK retries itself (our
// client does not retry); abort closes the connection; bad options fail with errors that name them.
import assert from "node:assert/strict"
import { APICallError, InvalidArgumentError, LoadAPIKeyError } from "@ai-sdk/provider"
import { RateLimitError, TimeoutError } from "@friendli-stream/client"
import { ApiError, StreamTruncated } from "@friendli-stream/stream"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { generateText, streamText } from "ai"
import { createFriendli } from "../src/index.ts"
import { type Harness, MODEL, startMock } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

/** Reads the full stream to its end or its failure: the parts, and what it threw. */
const drain = async (stream: AsyncIterable<{ type: string }>) => {
  const parts: Array<{ type: string } & Record<string, unknown>> = []
  try {
    for await (const part of stream) parts.push(part as never)
    return { parts, thrown: undefined as unknown }
  } catch (thrown) {
    return { parts, thrown }
  }
}

describe("failures inside the stream", () => {
  it("a cut stream gives the text before the cut, an error part and a failed stream, never a finish", async () => {
    const result = streamText({ model: h.provider("truncate:3")(MODEL), prompt: "Tell me a story", onError: () => {} })
    const { parts, thrown } = await drain(result.fullStream)
    const types = parts.map((p) => p.type)
    assert.ok(types.includes("text-delta"), types.join(","))
    const error = parts.find((p) => p.type === "error")?.error
    assert.ok(error instanceof StreamTruncated, String(error))
    assert.ok(thrown instanceof StreamTruncated, String(thrown))
    assert.ok(!types.includes("finish"), types.join(","))
    await assert.rejects(Promise.resolve(result.text), StreamTruncated)
  })

  it("generateText fails on a cut stream instead of returning a partial answer", async () => {
    await assert.rejects(
      generateText({ model: h.provider("truncate:3")(MODEL), prompt: "Tell me a story", maxRetries: 0 }),
      StreamTruncated,
    )
  })

  it("an in-stream error after the first chunk is an APICallError caused by our ApiError, and fails the stream", async () => {
    const result = streamText({ model: h.provider("error:2")(MODEL), prompt: "Tell me a story", onError: () => {} })
    const { parts, thrown } = await drain(result.fullStream)
    const error = parts.find((p) => p.type === "error")?.error
    assert.ok(APICallError.isInstance(error), String(error))
    assert.ok(error.cause instanceof ApiError)
    assert.equal(error.isRetryable, error.cause.retryable)
    assert.ok(APICallError.isInstance(thrown))
    assert.ok(!parts.some((p) => p.type === "finish"))
  })
  it("a stream that sends only keep-alives fails after idleTimeoutMs with our TimeoutError, and the connection is closed", async () => {
    const friendli = h.provider("stall:2,keepalive:50", { idleTimeoutMs: 300 })
    const result = streamText({ model: friendli(MODEL), prompt: "Tell me a story", onError: () => {} })
    const { parts, thrown } = await drain(result.fullStream)
    const error = parts.find((p) => p.type === "error")?.error
    assert.ok(error instanceof TimeoutError, String(error))
    assert.equal(error.reason, "Idle")
    assert.ok(thrown instanceof TimeoutError)
    const record = await h.mock.waitForDisconnect(h.mock.lastRequest()!.id, { timeoutMs: 3000 })
    const comments = record.events.filter((e) => e.type === "comment").length
    assert.ok(comments > 0, `the mock sent ${comments} keep-alive comments before the client left`)
  })
})

describe("HTTP errors and retries", () => {
  it("a 429 is an APICallError with the status, Retry-After and isRetryable from our RateLimitError", async () => {
    const before = h.mock.requests.length
    const error = await generateText({ model: h.provider("rate-limit:0")(MODEL), prompt: "Hi", maxRetries: 0 }).then(
      () => assert.fail("a 429 must fail"),
      (e: unknown) => e,
    )
    assert.ok(APICallError.isInstance(error), String(error))
    assert.equal(error.statusCode, 429)
    assert.equal(error.isRetryable, true)
    assert.equal(error.responseHeaders?.["retry-after"], "0")
    assert.ok(error.cause instanceof RateLimitError)
    assert.equal(h.mock.requests.length - before, 1, "our client made one attempt only")
  })

  it("the AI SDK's maxRetries is the only retry loop: one failure, one retry, then the answer", async () => {
    const before = h.mock.requests.length
    h.mock.queueFaults("rate-limit:0")
    const result = await generateText({ model: h.provider()(MODEL), prompt: "Hi", maxRetries: 1, maxOutputTokens: 3 })
    const statuses = h.mock.requests.slice(before).map((r) => r.status)
    assert.deepEqual(statuses, [429, 200])
    assert.ok(result.text.length > 0)
  })

  it("a 422 is not retried, and its body is the APICallError's responseBody", async () => {
    const before = h.mock.requests.length
    const error = await generateText({
      model: h.provider("status:422")(MODEL),
      prompt: "Hi",
      maxRetries: 2,
    }).then(
      () => assert.fail("a 422 must fail"),
      (e: unknown) => e,
    )
    assert.ok(APICallError.isInstance(error), String(error))
    assert.equal(error.statusCode, 422)
    assert.equal(error.isRetryable, false)
    assert.match(error.responseBody ?? "", /error/)
    assert.equal(h.mock.requests.length - before, 1)
  })

  it("aborting a stream closes the connection", async () => {
    const controller = new AbortController()
    const result = streamText({
      model: h.provider("delay:20")(MODEL),
      prompt: "Tell me a long story",
      maxOutputTokens: 200,
      abortSignal: controller.signal,
      onError: () => {},
    })
    for await (const text of result.textStream) {
      if (text.length > 0) break
    }
    controller.abort()
    const record = await h.mock.waitForDisconnect(h.mock.lastRequest()!.id, { timeoutMs: 3000 })
    assert.equal(record.outcome, "disconnected")
  })
})

describe("bad settings", () => {
  it("a provider option of the wrong type fails with InvalidArgumentError naming it", async () => {
    const error = await generateText({
      model: h.provider()(MODEL),
      prompt: "Hi",
      providerOptions: { friendli: { reasoningEffort: "extreme" } },
    }).then(
      () => assert.fail("must fail"),
      (e: unknown) => e,
    )
    assert.ok(InvalidArgumentError.isInstance(error), String(error))
    assert.equal(error.argument, "providerOptions.friendli.reasoningEffort")
    assert.match(error.message, /"extreme"/)
  })

  it("no token for Friendli's cloud fails the call (not the import) with LoadAPIKeyError", async () => {
    const saved = process.env.FRIENDLI_TOKEN
    delete process.env.FRIENDLI_TOKEN
    try {
      const friendli = createFriendli()
      await assert.rejects(generateText({ model: friendli(MODEL), prompt: "Hi", maxRetries: 0 }), (e: unknown) =>
        LoadAPIKeyError.isInstance(e),
      )
    } finally {
      if (saved !== undefined) process.env.FRIENDLI_TOKEN = saved
    }
  })
})
