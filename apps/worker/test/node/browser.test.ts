// End to end: the Worker under `wrangler dev` (wrangler.jsonc as it is: no token, so the mock in its isolate, paced
// 25 ms a token), its page in a real headless Chromium (Debian's `chromium`, driven by playwright-core). A person types
// a prompt, clicks Send, and must see the tokens appear while the stream still runs. Screenshots go to reports/.
import assert from "node:assert/strict"
import { existsSync, mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { type StartedWorker, startWorker } from "@friendli-stream/test-harness/wrangler"
import { type Browser, chromium, type Page } from "playwright-core"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const REPORTS = fileURLToPath(new URL("../../reports/", import.meta.url))

/** What the page shows, read in the page. */
const readPage = (page: Page) =>
  page.evaluate(() => ({
    state: document.body.dataset.state,
    output: document.getElementById("output")!.textContent ?? "",
    ttft: document.getElementById("ttft")!.textContent ?? "",
    tps: document.getElementById("tps")!.textContent ?? "",
    tokens: document.getElementById("tokens")!.textContent ?? "",
  }))

/** From now on, the page records the length of the output and its state at each change of the output. */
const recordOutput = (page: Page) =>
  page.evaluate(() => {
    const output = document.getElementById("output")!
    const samples: Array<{ length: number; state: string | undefined }> = []
    ;(window as unknown as { samples: typeof samples }).samples = samples
    new MutationObserver(() =>
      samples.push({ length: output.textContent?.length ?? 0, state: document.body.dataset.state }),
    ).observe(output, { childList: true, characterData: true, subtree: true })
  })

const samplesOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { samples: Array<{ length: number; state: string | undefined }> }).samples)

/** Why this file's tests cannot run here: no Chromium (.ci/run installs Debian's package). */
const NO_CHROMIUM = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, as .ci/run does, or set CHROMIUM_PATH)`

describe.skipIf(NO_CHROMIUM)("the page in a headless Chromium, served by wrangler dev", () => {
  let worker: StartedWorker | undefined
  let browser: Browser | undefined
  let url: string
  const pageErrors: Array<string> = []

  beforeAll(async () => {
    mkdirSync(REPORTS, { recursive: true })
    worker = await startWorker({ config: fileURLToPath(new URL("../../wrangler.jsonc", import.meta.url)) })
    url = worker.url
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await worker?.stop()
  }, 30_000)

  const openPage = async (): Promise<Page> => {
    const page = await browser!.newPage({ viewport: { width: 960, height: 720 } })
    page.on("pageerror", (error) => pageErrors.push(error.message))
    await page.goto(`${url}/`)
    return page
  }

  it("shows the tokens as they arrive, the first before the stream ends, with TTFT and tokens/s", async () => {
    const page = await openPage()
    try {
      // The mock answers this prompt with 38 tokens (then "stop"): about a second at 25 ms a token.
      const prompt = "Explain server-sent events to a child"
      await page.fill("#prompt", prompt)
      await recordOutput(page)
      await page.click("#send")

      // The first token is on the screen while the page still says the stream runs.
      await page.waitForFunction(
        () =>
          document.body.dataset.state === "streaming" && (document.getElementById("output")!.textContent ?? "") !== "",
        null,
        { timeout: 15_000, polling: 10 },
      )
      const early = await readPage(page)
      await page.screenshot({ path: `${REPORTS}stream-midway.png` })

      await page.waitForFunction(() => !["waiting", "streaming"].includes(document.body.dataset.state ?? ""), null, {
        timeout: 30_000,
      })
      const done = await readPage(page)
      await page.screenshot({ path: `${REPORTS}stream.png` })

      assert.equal(done.state, "done", `the page ended in "${done.state}": ${done.output}`)
      assert.ok(early.output.length > 0 && early.output.length < done.output.length, "a part, then the whole")
      assert.ok(done.output.startsWith(early.output), "the text only grows")
      assert.match(done.ttft, /^TTFT \d+ ms$/)
      assert.match(done.tps, /^\d+(\.\d)? tok\/s$/)

      // The output changed once per token, each time while the page said "streaming", growing every time.
      const samples = await samplesOf(page)
      const streaming = samples.filter((s) => s.state === "streaming" && s.length > 0)
      assert.ok(streaming.length >= 30, `${streaming.length} changes of the output while streaming`)
      assert.ok(
        streaming.every((s, i) => i === 0 || s.length > streaming[i - 1]!.length),
        "each change adds text",
      )

      // The same prompt without a browser: the page shows exactly the completion the Worker streams.
      const res = await fetch(`${url}/api/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt, max_tokens: 64 }),
      })
      const texts = (await res.text())
        .split("\n")
        .filter((l) => l.startsWith("data: {"))
        .map((l) => (JSON.parse(l.slice(6)) as { choices: Array<{ text?: string }> }).choices[0]?.text ?? "")
        .filter((t) => t !== "")
      assert.equal(done.output, texts.join("").trimStart())
      assert.equal(done.tokens, `${texts.length} tokens`)
      assert.deepEqual(pageErrors, [])
    } finally {
      await page.close()
    }
  }, 60_000)

  it("stops the stream with Stop: the text stops growing and the page says stopped", async () => {
    const page = await openPage()
    try {
      // 38 tokens at 25 ms: Stop comes after the third, with most of a second to spare.
      await page.fill("#prompt", "Explain server-sent events to a child")
      await page.click("#send")
      await page.waitForFunction(() => document.getElementById("tokens")!.textContent === "3 tokens", null, {
        timeout: 15_000,
        polling: 5,
      })
      await page.click("#stop")
      await page.waitForFunction(() => document.body.dataset.state === "stopped", null, { timeout: 5_000 })
      const stopped = await readPage(page)
      await page.waitForTimeout(300)
      const later = await readPage(page)
      assert.equal(later.output, stopped.output)
      assert.ok(Number.parseInt(stopped.tokens, 10) < 38, stopped.tokens)
      assert.equal(await page.isEnabled("#send"), true)
      assert.deepEqual(pageErrors, [])
    } finally {
      await page.close()
    }
  }, 60_000)
})
