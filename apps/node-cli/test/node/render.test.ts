import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { logprobsTable, statusLine, tokensPerSecond, usageLine, visibleToken } from "../../src/render.ts"

describe("the status line", () => {
  it("shows placeholders until the first tokens arrive", () => {
    assert.equal(statusLine({ ttftMs: undefined, tokens: 0, firstToLastMs: 0 }), "TTFT … · … tok/s · 0 tokens")
  })

  it("counts tokens per second from the first token to the last, and says so", () => {
    assert.equal(tokensPerSecond({ ttftMs: 100, tokens: 11, firstToLastMs: 500 }), 20)
    assert.equal(
      statusLine({ ttftMs: 212.4, tokens: 11, firstToLastMs: 500 }),
      "TTFT 212 ms · 20.0 tok/s to the last token · 11 tokens",
    )
    assert.equal(statusLine({ ttftMs: 5, tokens: 1, firstToLastMs: 0 }), "TTFT 5 ms · … tok/s · 1 token")
  })
})

describe("the logprobs table", () => {
  it("makes spaces and line ends visible", () => {
    assert.equal(visibleToken(" the\n"), "␣the⏎")
  })

  it("shows each token with its logprob, probability and the k alternatives the server listed, itself included", () => {
    const table = logprobsTable([
      {
        token: " such",
        logprob: -0.5,
        top: [
          { token: " such", logprob: -0.5 },
          { token: " as", logprob: -1.25 },
          { token: " the", logprob: -2 },
        ],
      },
    ])
    const [header, row] = table.split("\n")
    assert.match(header!, /^token\s+logprob\s+prob\s+top alternatives$/)
    assert.match(row!, /^␣such\s+-0\.500\s+60\.7%\s+␣such -0\.50, ␣as -1\.25, ␣the -2\.00$/)
  })
})

describe("the usage line", () => {
  it("adds up prompt and completion tokens as the server reported them", () => {
    assert.equal(
      usageLine({ prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 }),
      "usage: 5 prompt + 10 completion = 15 tokens",
    )
  })
})
