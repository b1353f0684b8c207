// The one command a person runs, `pnpm --filter @friendli-stream/deno-app start`, as a child process with no
// configuration at all: it must serve the embedded mock and stream from it over HTTP.
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { post, readSse, textOf } from "./sse.ts"

const root = new URL("../../../../", import.meta.url).pathname

describe("pnpm --filter @friendli-stream/deno-app start", () => {
  it("serves the app with no configuration, streaming from the embedded mock", async () => {
    const env = Deno.env.toObject()
    delete env.FRIENDLI_TOKEN
    const child = new Deno.Command("pnpm", {
      args: ["--filter", "@friendli-stream/deno-app", "start"],
      cwd: root,
      env: { ...env, PORT: "0" },
      clearEnv: true,
      // its own process group, so that stopping it stops pnpm and the deno process it starts
      detached: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn()
    const stderr = new Response(child.stderr).text()
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader()
    let out = ""
    try {
      let url: string | undefined
      while (url === undefined) {
        const { done, value } = await reader.read()
        if (done) throw new Error(`the app ended before it listened:\n${out}\n${await stderr}`)
        out += value
        url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      }
      assert.match(out, /No FRIENDLI_TOKEN: streaming from the embedded mock at http:\/\/127\.0\.0\.1:\d+/)
      const res = await post(url, { prompt: "Once upon a time", max_tokens: 6 })
      assert.equal(res.status, 200)
      const { events } = await readSse(res)
      assert.equal(events.at(-1), "[DONE]")
      assert.ok(textOf(events).trim().length > 0)
    } finally {
      try {
        Deno.kill(-child.pid, "SIGTERM")
      } catch {
        // already gone
      }
      await reader.cancel().catch(() => {})
      await child.status
      await stderr.catch(() => "")
    }
  }, 60_000)
})
