import assert from "node:assert/strict"
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { createMockFriendli, type MockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

const main = resolve(import.meta.dirname, "../../dist/main.js")

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the built CLI as a user would; `onStdout` may act on the running process (e.g. send SIGINT). */
const cli = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  onStdout?: (text: string, child: ChildProcess) => void,
): Promise<Run> =>
  new Promise((done, fail) => {
    const { FRIENDLI_TOKEN: _, ...inherited } = process.env
    const child = spawn(process.execPath, [main, ...args], {
      env: { ...inherited, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8")
      onStdout?.(stdout, child)
    })
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8")
    })
    child.on("error", fail)
    child.on("close", (code) => done({ code, stdout, stderr }))
  })

describe("friendli-demo without a token", () => {
  it("streams a completion from the embedded mock and reports TTFT, tokens/s and usage", async () => {
    const run = await cli(["Once upon a time", "--max-tokens", "12"])
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stderr, /embedded mock endpoint at http:\/\/127\.0\.0\.1:\d+/)
    assert.ok(run.stdout.trim().length > 0, "no text was streamed")
    assert.match(run.stderr, /TTFT \d+ ms · [\d.]+ tok\/s to the last token · 12 tokens/)
    assert.match(run.stderr, /usage: \d+ prompt \+ 12 completion = \d+ tokens/)
  }, 30_000)

  it("ends quietly with exit 0 when the reader of its output goes away (| head -1)", async () => {
    const run = await cli(["Once upon a time", "--json", "--max-tokens", "40"], {}, (_text, child) => {
      child.stdout?.destroy()
    })
    assert.equal(run.code, 0, run.stderr)
    assert.doesNotMatch(run.stderr, /EPIPE|Error/, run.stderr)
  }, 30_000)

  it("prints one JSON chunk per line with --json, ending with the usage chunk", async () => {
    const run = await cli(["Hello", "--json", "--max-tokens", "5"])
    assert.equal(run.code, 0, run.stderr)
    const chunks = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { object: string; choices: unknown[]; usage?: { completion_tokens: number } })
    assert.ok(chunks.every((c) => c.object === "text_completion"))
    assert.equal(chunks.at(-1)?.choices.length, 0)
    assert.equal(chunks.at(-1)?.usage?.completion_tokens, 5)
  }, 30_000)

  it("shows chat completions, every choice and a logprobs table", async () => {
    const run = await cli(["Hi", "--chat", "-n", "2", "--logprobs", "2", "--max-tokens", "4", "--seed", "7"])
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stdout, /── choice 1 ──/)
    assert.match(run.stdout, /token\s+logprob\s+prob\s+top alternatives/)
    assert.equal(run.stdout.split("\n").filter((l) => /^\S+\s+-\d+\.\d{3}\s+\d+\.\d%/.test(l)).length, 4)
  }, 30_000)

  it("shows k alternatives per token with --logprobs k", async () => {
    for (const k of [1, 3]) {
      const run = await cli(["Hi", "--chat", "--logprobs", String(k), "--max-tokens", "3"])
      assert.equal(run.code, 0, run.stderr)
      const rows = run.stdout.split("\n").filter((l) => /^\S+\s+-\d+\.\d{3}\s+\d+\.\d%/.test(l))
      assert.equal(rows.length, 3, run.stdout)
      for (const row of rows) {
        // each alternative is "token logprob", the logprob with two decimals (a token may itself be ",")
        const alternatives = row.replace(/^\S+\s+-\d+\.\d{3}\s+\d+\.\d%\s+/, "").match(/-?\d+\.\d{2}(?=,|$)/g) ?? []
        assert.equal(alternatives.length, k, `--logprobs ${k}: ${row}`)
      }
    }
  }, 30_000)

  it("streams the reasoning, then the answer, with both timings, with --reasoning", async () => {
    const run = await cli(["Write a haiku about GPUs", "--reasoning", "low"])
    assert.equal(run.code, 0, run.stderr)
    const [reasoning, answer] = run.stdout.split("\n\n")
    assert.match(reasoning ?? "", /^The user asks: “Write a haiku about GPUs”/, run.stdout)
    assert.ok((answer ?? "").trim().length > 0, `no answer after the reasoning: ${run.stdout}`)
    assert.match(
      run.stderr,
      /first reasoning token \d+ ms · first answer token \d+ ms · [\d.]+ tok\/s to the last token · \d+ tokens \(\d+ reasoning\)/,
    )
  }, 30_000)

  it("explains a bad flag and exits with 2", async () => {
    const run = await cli(["--max-tokens", "lots"])
    assert.equal(run.code, 2)
    assert.match(run.stderr, /--max-tokens takes a whole number ≥ 1, got "lots"/)
  }, 30_000)

  it("says in one line of its own which flag it does not know, then the usage, and exits with 2", async () => {
    const run = await cli(["--bogus"])
    assert.equal(run.code, 2)
    const [first, blank, usage] = run.stderr.split("\n")
    assert.equal(first, "friendli-demo: unknown option --bogus")
    assert.equal(blank, "")
    assert.match(usage ?? "", /^Usage: friendli-demo/)
    assert.doesNotMatch(run.stderr, /positional argument|'--/, "Node's parseArgs advice about -- is not ours to give")
  }, 30_000)

  it("ends a bad command line with 0 under pnpm start, so that pnpm adds no ELIFECYCLE lines", async () => {
    const run = await cli(["--n"], { npm_lifecycle_event: "start" })
    assert.equal(run.code, 0)
    assert.match(run.stderr, /^friendli-demo: --n needs a value\n/)
  }, 30_000)
})

describe("friendli-demo with a server of your own", () => {
  let mock: MockFriendli
  let server: Awaited<ReturnType<typeof serveNode>>

  beforeAll(async () => {
    mock = createMockFriendli()
    server = await serveNode(mock)
  })
  afterAll(() => server.close())

  it("streams from --base-url without a token (a container needs none), not from the embedded mock", async () => {
    const run = await cli(["Hello", "--base-url", server.url, "--max-tokens", "3"], { FRIENDLI_TOKEN: "" })
    assert.equal(run.code, 0, run.stderr)
    assert.doesNotMatch(run.stderr, /embedded mock/)
    assert.equal(mock.lastRequest()?.path, "/v1/completions")
  }, 30_000)

  it("refuses a request the API schema forbids before sending it, one line per wrong field", async () => {
    mock.clearRecords()
    const run = await cli(["Hello", "--base-url", server.url, "--chat", "--top-p", "1.5", "--temperature", "0.5"])
    assert.equal(run.code, 1, run.stderr)
    assert.match(
      run.stderr,
      /InvalidRequestError: the request was not sent; fix these fields:\n {2}top_p: .*less than or equal to 1.*1\.5\n/,
    )
    assert.doesNotMatch(run.stderr, /temperature/, run.stderr)
    assert.doesNotMatch(run.stderr, /Missing key|at \[/, run.stderr)
    assert.equal(mock.requests.length, 0, "the request reached the server")
  }, 30_000)

  it("prints a 422 from the server one line per wrong field", async () => {
    const run = await cli(["Hello", "--base-url", server.url, "-n", "17", "--max-tokens", "5000"])
    assert.equal(run.code, 1, run.stderr)
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("  "))
    assert.deepEqual(lines.map((l) => l.trim().split(":")[0]).sort(), ["max_tokens", "n"], run.stderr)
  }, 30_000)

  it("refuses --endpoint without a token, saying that a dedicated endpoint needs FRIENDLI_TOKEN", async () => {
    const run = await cli(["Hello", "--endpoint", "ep-1"], { FRIENDLI_TOKEN: "  " })
    assert.equal(run.code, 2)
    assert.match(run.stderr, /--endpoint .* needs a token: set FRIENDLI_TOKEN/)
  }, 30_000)
})

describe("friendli-demo with a token", () => {
  let mock: MockFriendli
  let server: Awaited<ReturnType<typeof serveNode>>

  beforeAll(async () => {
    mock = createMockFriendli({ tokens: ["flp_right"] })
    server = await serveNode(mock)
  })
  afterAll(() => server.close())

  it("talks to the server it is pointed at, as a dedicated endpoint, with the bearer token", async () => {
    const run = await cli(["--endpoint", "ep-123", "--base-url", `${server.url}/dedicated`, "--max-tokens", "3"], {
      FRIENDLI_TOKEN: "flp_right",
    })
    assert.equal(run.code, 0, run.stderr)
    const seen = mock.lastRequest()
    assert.ok(seen, "the server saw no request")
    assert.equal(seen.path, "/dedicated/v1/completions")
    assert.equal((seen.body as { model?: string }).model, "ep-123")
    assert.doesNotMatch(run.stderr, /embedded mock/)
  }, 30_000)

  it("prints the typed error and exits with 1 when the token is refused", async () => {
    const run = await cli(["--endpoint", "ep-1", "--base-url", `${server.url}/dedicated`], {
      FRIENDLI_TOKEN: "flp_wrong",
    })
    assert.equal(run.code, 1)
    assert.match(run.stderr, /AuthenticationError/)
  }, 30_000)

  it("aborts the request on Ctrl-C, closing the connection, and exits with 130", async () => {
    mock.queueFaults("delay:40")
    let sent = false
    const run = await cli(
      ["--endpoint", "ep-1", "--base-url", `${server.url}/dedicated`, "--max-tokens", "500"],
      { FRIENDLI_TOKEN: "flp_right" },
      (text, child) => {
        if (!sent && text.trim().length > 0) {
          sent = true
          child.kill("SIGINT")
        }
      },
    )
    assert.equal(run.code, 130, run.stderr)
    assert.match(run.stderr, /aborted/)
    const record = mock.lastRequest()
    assert.ok(record !== undefined)
    const settled = await mock.waitForSettled(record.id, { timeoutMs: 2000 })
    assert.equal(settled.outcome, "disconnected")
  }, 30_000)
})
