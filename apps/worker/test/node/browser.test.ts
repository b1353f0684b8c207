// End to end: the Worker under `wrangler dev` (wrangler.jsonc as it is: no token, so the mock in its isolate, paced
// 25 ms a token; plus TEST_HOOKS, so that `?dropAfter=k` cuts each event stream after k events), its page in a real
// headless Chromium (Debian's `chromium`, driven by playwright-core). A person types a prompt, clicks Send, and must
// see the tokens appear while the stream still runs, once each, also when the connection drops. Screenshots go to
// reports/.
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
    reconnects: document.getElementById("reconnects")!.textContent ?? "",
    stateText: document.getElementById("state")!.textContent ?? "",
  }))

/** The text of the uninterrupted stream of `prompt` (the mock answers a prompt the same way every time). */
const uninterruptedText = async (url: string, prompt: string): Promise<Array<string>> => {
  const res = await fetch(`${url}/v1/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ prompt, max_tokens: 64 }),
  })
  return (await res.text())
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => (JSON.parse(l.slice(6)) as { choices: Array<{ text?: string }> }).choices[0]?.text ?? "")
    .filter((t) => t !== "")
}

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
    worker = await startWorker({
      config: fileURLToPath(new URL("../../wrangler.jsonc", import.meta.url)),
      vars: { TEST_HOOKS: "true" },
    })
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
      const texts = await uninterruptedText(url, prompt)
      assert.equal(done.output, texts.join("").trimStart())
      assert.equal(done.tokens, `${texts.length} tokens`)
      assert.equal(done.reconnects, "0 reconnects")
      assert.deepEqual(pageErrors, [])
    } finally {
      await page.close()
    }
  }, 60_000)

  it("reconnects by itself when the connection drops mid-stream and shows the answer exactly once", async () => {
    const page = await openPage()
    const lastEventIds: Array<string> = []
    try {
      // Every connection of the page's EventSource is cut after 10 events (the Worker's test hook): the page has to
      // resume several times, each time from the last event it got.
      await page.route("**/v1/stream?**", (route) => route.continue({ url: `${route.request().url()}&dropAfter=10` }))
      // The headers as Chromium's network stack sent them (it adds Last-Event-ID), from the DevTools protocol.
      const cdp = await page.context().newCDPSession(page)
      await cdp.send("Network.enable")
      cdp.on("Network.requestWillBeSentExtraInfo", ({ headers }) => {
        const id = Object.entries(headers).find(([name]) => name.toLowerCase() === "last-event-id")?.[1]
        if (typeof id === "string") lastEventIds.push(id)
      })
      const prompt = "Explain server-sent events to a child"
      await page.fill("#prompt", prompt)
      await page.click("#send")
      await page.waitForFunction(() => document.body.dataset.state === "reconnecting", null, {
        timeout: 15_000,
        polling: 5,
      })
      await page.screenshot({ path: `${REPORTS}stream-reconnecting.png` })
      await page.waitForFunction(
        () => !["waiting", "streaming", "reconnecting"].includes(document.body.dataset.state ?? ""),
        null,
        {
          timeout: 60_000,
        },
      )
      const done = await readPage(page)
      await page.screenshot({ path: `${REPORTS}stream-resumed.png` })
      assert.equal(done.state, "done", `the page ended in "${done.state}": ${done.output}`)
      const texts = await uninterruptedText(url, prompt)
      assert.equal(done.output, texts.join("").trimStart(), "the answer once, in order, as uninterrupted")
      assert.equal(done.tokens, `${texts.length} tokens`)
      const reconnects = Number.parseInt(done.reconnects, 10)
      assert.ok(reconnects >= 3, done.reconnects)
      assert.equal(lastEventIds.length, reconnects, `Last-Event-ID sent: ${lastEventIds.join(", ")}`)
      // Each resume from the 10th event of the connection before: <stream>.10, <stream>.20, …
      assert.deepEqual(
        lastEventIds.map((id) => id.slice(id.lastIndexOf(".") + 1)),
        lastEventIds.map((_, i) => String(10 * (i + 1))),
      )
      assert.deepEqual(pageErrors, [])
    } finally {
      await page.close()
    }
  }, 90_000)

  it("stops the stream with Stop: a DELETE of the stream, the text stops growing and the page says cancelled", async () => {
    const page = await openPage()
    try {
      // 38 tokens at 25 ms: Stop comes after the third or so, with most of a second to spare.
      await page.fill("#prompt", "Explain server-sent events to a child")
      const deleted = page.waitForRequest((request) => request.method() === "DELETE")
      await page.click("#send")
      await page.waitForFunction(
        () => Number.parseInt(document.getElementById("tokens")!.textContent ?? "", 10) >= 3,
        null,
        {
          timeout: 15_000,
          polling: 5,
        },
      )
      await page.click("#stop")
      assert.match((await deleted).url(), /\/v1\/stream\/[A-Za-z0-9_-]{22}$/)
      await page.waitForFunction(() => document.body.dataset.state === "cancelled", null, { timeout: 10_000 })
      const stopped = await readPage(page)
      // The stream's end came after the DELETE: nothing after it can arrive (the EventSource is closed).
      assert.equal(stopped.stateText, "cancelled")
      assert.ok(Number.parseInt(stopped.tokens, 10) < 38, stopped.tokens)
      assert.equal(await page.isEnabled("#send"), true)
      assert.deepEqual(pageErrors, [])
    } finally {
      await page.close()
    }
  }, 60_000)
})
