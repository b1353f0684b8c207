// The behaviour of `@friendli-stream/test-harness/redis`, on the runtimes that can spawn a process (Node, Deno, Bun;
// this package's test:workerd excludes this file).
import assert from "node:assert/strict"
import { createConnection } from "node:net"
import { describe, it } from "@friendli-stream/test-harness"
import { redisSkip, startRedis } from "@friendli-stream/test-harness/redis"

/** Sends one inline command, resolves with the first reply line (or the error that closed the socket). */
const command = (port: number, line: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port })
    let reply = ""
    socket.once("error", reject)
    // Deno's node:net may report a refused connection as a connect then a close: no reply is a failure too.
    socket.once("close", () => reject(new Error(`no reply to ${line} on 127.0.0.1:${port}`)))
    socket.once("connect", () => socket.write(`${line}\r\n`))
    socket.on("data", (chunk: Uint8Array) => {
      reply += new TextDecoder().decode(chunk)
      if (reply.includes("\r\n")) {
        socket.destroy()
        resolve(reply.split("\r\n")[0] ?? "")
      }
    })
  })

describe.skipIf(redisSkip())("the Redis fixture", () => {
  it("starts a redis-server on 127.0.0.1 that answers, without persistence, and stops it", async () => {
    const redis = await startRedis()
    try {
      assert.match(redis.url, /^redis:\/\/127\.0\.0\.1:\d+$/)
      assert.equal(await command(redis.port, "PING"), "+PONG")
      assert.equal(await command(redis.port, "SET fixture:key value"), "+OK")
      assert.equal(await command(redis.port, "CONFIG GET appendonly"), "*2")
    } finally {
      await redis.stop()
    }
    await assert.rejects(command(redis.port, "PING"), "the server still answers after stop()")
  }, 20_000)

  it("starts two servers on distinct ports, each with its own data", async () => {
    const [a, b] = await Promise.all([startRedis(), startRedis()])
    try {
      assert.notEqual(a.port, b.port)
      assert.equal(await command(a.port, "SET only:a 1"), "+OK")
      assert.equal(await command(b.port, "EXISTS only:a"), ":0")
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  }, 20_000)
})
