import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { parseCli, UsageError } from "../../src/args.ts"

describe("the command line", () => {
  it("takes the prompt from the positional words and has sensible defaults", () => {
    const o = parseCli(["Hello", "there"])
    assert.equal(o.prompt, "Hello there")
    assert.deepStrictEqual(
      { chat: o.chat, n: o.n, maxTokens: o.maxTokens, json: o.json, logprobs: o.logprobs },
      { chat: false, n: 1, maxTokens: 64, json: false, logprobs: undefined },
    )
  })

  it("reads every flag", () => {
    const o = parseCli(["--chat", "-n", "3", "--logprobs", "5", "--max-tokens", "10", "--seed", "42", "--json"])
    assert.deepStrictEqual(
      { chat: o.chat, n: o.n, logprobs: o.logprobs, maxTokens: o.maxTokens, seed: o.seed, json: o.json },
      { chat: true, n: 3, logprobs: 5, maxTokens: 10, seed: 42, json: true },
    )
    const sampling = parseCli(["--temperature", "0.7", "--top-p", "0.9"])
    assert.deepStrictEqual({ temperature: sampling.temperature, topP: sampling.topP }, { temperature: 0.7, topP: 0.9 })
    assert.equal(parseCli(["--endpoint", "ep-1"]).endpoint, "ep-1")
    assert.equal(parseCli(["--base-url", "http://gpu:8000"]).baseUrl, "http://gpu:8000")
  })

  it("reads flags after the -- that pnpm start passes on", () => {
    const o = parseCli(["--", "Hi", "--max-tokens", "3", "--json"])
    assert.deepStrictEqual(
      { prompt: o.prompt, maxTokens: o.maxTokens, json: o.json },
      { prompt: "Hi", maxTokens: 3, json: true },
    )
  })

  it("names the flag whose value is not a whole number", () => {
    assert.throws(
      () => parseCli(["--max-tokens", "ten"]),
      (e) => e instanceof UsageError && /--max-tokens/.test(e.message),
    )
    assert.throws(() => parseCli(["-n", "0"]), /--n takes a whole number ≥ 1, got "0"/)
  })

  it("names the flag whose value is not a number, and leaves a number's range to the API schema", () => {
    assert.throws(() => parseCli(["--top-p", "high"]), /--top-p takes a number, got "high"/)
    assert.throws(() => parseCli(["--temperature", ""]), /--temperature takes a number, got ""/)
    assert.equal(parseCli(["--top-p", "1.5"]).topP, 1.5)
  })

  it("rejects unknown flags and a dedicated endpoint together with a serverless model", () => {
    assert.throws(
      () => parseCli(["--nope"]),
      (e) => e instanceof UsageError && e.message === "unknown option --nope",
    )
    assert.throws(
      () => parseCli(["-x"]),
      (e) => e instanceof UsageError && e.message === "unknown option -x",
    )
    assert.throws(
      () => parseCli(["--seed"]),
      (e) => e instanceof UsageError && e.message === "--seed needs a value",
    )
    assert.throws(
      () => parseCli(["--json=yes"]),
      (e) => e instanceof UsageError && e.message === "--json takes no value",
    )
    assert.throws(() => parseCli(["--endpoint", "e", "--model", "m"]), /cannot be used together/)
  })

  it("reads --reasoning with an optional effort (medium by default), which makes it a chat with room to think", () => {
    const bare = parseCli(["--reasoning", "Why is the sky blue?"])
    assert.deepStrictEqual(
      { reasoning: bare.reasoning, chat: bare.chat, prompt: bare.prompt, maxTokens: bare.maxTokens },
      { reasoning: "medium", chat: true, prompt: "Why is the sky blue?", maxTokens: 200 },
    )
    assert.equal(parseCli(["--reasoning", "high", "Hi"]).reasoning, "high")
    assert.equal(parseCli(["Hi", "--reasoning=low"]).reasoning, "low")
    assert.equal(parseCli(["Hi", "--reasoning"]).reasoning, "medium")
    assert.throws(() => parseCli(["--reasoning=huge"]), /--reasoning takes one of minimal, low, .*got "huge"/)
  })
})
