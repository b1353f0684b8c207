import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { parseCli } from "../../src/args.ts"
import { showStream } from "../../src/session.ts"

/** A terminal that records what was written to it, and a clock the test moves. */
const terminal = () => {
  let clock = 0
  const stdout: Array<string> = []
  const stderr: Array<string> = []
  return {
    out: {
      stdout: { write: (s: string) => stdout.push(s) },
      stderr: { write: (s: string) => stderr.push(s), isTTY: true, rows: 24 },
      now: () => clock,
    },
    advance: (ms: number) => {
      clock += ms
    },
    stdout: () => stdout.join(""),
    stderr: () => stderr.join(""),
  }
}

const completionChunk = (text: string) => ({ choices: [{ index: 0, text }] })

describe("the demo's statistics", () => {
  it("measures tok/s to the last token, so the final number is the last live one however late the stream ends", async () => {
    const t = terminal()
    async function* stream() {
      t.advance(200) // time to first token
      for (const text of [" one", " two", " three", " four", " five"]) {
        yield completionChunk(text)
        t.advance(100) // one token every 100 ms: 10 tok/s
      }
      t.advance(3000) // the finish chunk, usage and [DONE] come late: not generation
      yield { choices: [{ index: 0, text: "" }], usage: { prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 } }
    }
    await showStream(stream(), parseCli(["x"]), t.out)
    // the live line is painted dim: ESC[2m … ESC[0m
    const painted = t
      .stderr()
      .split("\u001b[2m")
      .slice(1)
      .map((p) => p.split("\u001b[0m")[0])
    const final = t
      .stderr()
      .split("\n")
      .find((l) => l.startsWith("TTFT"))
    assert.equal(final, "TTFT 200 ms · 10.0 tok/s to the last token · 5 tokens", t.stderr())
    assert.equal(painted.at(-1), final, `live lines: ${JSON.stringify(painted)}`)
  })

  it("shows the reasoning dimmed before the answer, with the time to the first reasoning and first answer token", async () => {
    const t = terminal()
    const tty = { ...t.out, stdout: { ...t.out.stdout, isTTY: true } }
    const delta = (d: Record<string, string>) => ({ choices: [{ index: 0, delta: d }] })
    async function* stream() {
      t.advance(100)
      yield delta({ role: "assistant", reasoning_content: "Think" })
      t.advance(50)
      yield delta({ reasoning_content: " hard." })
      t.advance(250)
      yield delta({ content: "Blue" })
      t.advance(50)
      yield delta({ content: " light." })
    }
    await showStream(stream(), parseCli(["--reasoning", "x"]), tty)
    assert.equal(t.stdout(), "\u001b[2mThink hard.\u001b[0m\n\nBlue light.\n")
    const final = t
      .stderr()
      .split("\n")
      .find((l) => l.startsWith("first"))
    assert.equal(
      final,
      "first reasoning token 100 ms · first answer token 400 ms · 8.6 tok/s to the last token · 4 tokens (2 reasoning)",
    )
  })
})
