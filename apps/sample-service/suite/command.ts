// The one command a person runs, `pnpm --filter <the sample> start`, as a child process with no configuration at
// all: it must serve the embedded mock and stream from it over HTTP. node:child_process, which Deno and Bun have too.
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, it } from "@friendli-stream/test-harness"
import { post, readSse, textOf } from "./sse.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))

export const commandTests = (packageName: string): void =>
  describe(`pnpm --filter ${packageName} start`, () => {
    it("serves the app with no configuration, streaming from the embedded mock", async () => {
      const { FRIENDLI_TOKEN: _, ...env } = process.env
      const child = spawn("pnpm", ["--filter", packageName, "start"], {
        cwd: root,
        env: { ...env, PORT: "0" },
        stdio: ["ignore", "pipe", "pipe"],
        // its own process group, so that stopping it stops pnpm and the runtime it starts
        detached: true,
      })
      const exited = new Promise((done) => child.once("close", done))
      let out = ""
      let err = ""
      child.stderr.on("data", (d: Uint8Array) => {
        err += new TextDecoder().decode(d)
      })
      try {
        const url = await new Promise<string>((found, fail) => {
          child.stdout.on("data", (d: Uint8Array) => {
            out += new TextDecoder().decode(d)
            const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
            if (url !== undefined) found(url)
          })
          child.once("close", () => fail(new Error(`the app ended before it listened:\n${out}\n${err}`)))
        })
        assert.match(out, /No FRIENDLI_TOKEN: streaming from the embedded mock at http:\/\/127\.0\.0\.1:\d+/)
        const res = await post(url, { prompt: "Once upon a time", max_tokens: 6 })
        assert.equal(res.status, 200)
        const { events } = await readSse(res)
        assert.equal(events.at(-1), "[DONE]")
        assert.ok(textOf(events).trim().length > 0)
      } finally {
        try {
          process.kill(-child.pid!, "SIGTERM")
        } catch {
          // already gone
        }
        await exited
      }
    }, 60_000)
  })
