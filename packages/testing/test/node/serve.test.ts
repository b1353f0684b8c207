// The mock served by node:http on a real socket (Node 22 and Node 24).
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { request as httpRequest } from "node:http"
import { createRequire } from "node:module"
import { connect } from "node:net"
import { describe, it } from "@friendli-stream/test-harness"
import { createMockFriendli } from "../../src/index.ts"
import { serveNode } from "../../src/Node.ts"
import { completionsBody, readStream, sleep } from "../helpers.ts"
import { describeServed, headers, PATH, serveSuite } from "../support/serveSuite.ts"

serveSuite("serveNode", serveNode)

describeServed("serveNode on node:http", serveNode, (served) => {
  const { mock } = served

  it("listens on 127.0.0.1 and a free port", () => {
    const { server } = served
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.ok(server.port > 0)
  })

  it("resets the TCP connection on the reset fault", async () => {
    const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
      const req = httpRequest(
        `${served.server.url}${PATH}`,
        { method: "POST", headers: { ...headers, "x-mock-fault": "reset:1" } },
        (res) => {
          res.on("data", () => {})
          res.on("error", resolve)
          res.on("end", () => reject(new Error("the body ended normally")))
        },
      )
      req.on("error", resolve)
      req.end(JSON.stringify(completionsBody()))
    })
    assert.equal(error.code, "ECONNRESET")
    const record = await mock.waitForRequest((r) => r.faults === "reset:1")
    assert.equal((await mock.waitForSettled(record.id)).outcome, "reset")
  })

  it("streams with backpressure: a client that does not read stops the producer", async () => {
    const socket = connect(served.server.port, "127.0.0.1")
    await once(socket, "connect")
    socket.pause()
    const payload = JSON.stringify(completionsBody({ n: 16, max_tokens: 4000, ignore_eos: true, logprobs: 20 }))
    socket.write(
      `POST ${PATH} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
    )
    const record = await mock.waitForRequest(
      (r) => (r.body as { max_tokens?: number } | undefined)?.max_tokens === 4000,
    )
    // wait until the producer stops (no new write for a while) or the body ends: an unbounded producer would go on
    // writing to the end of the answer
    const writes = () => mock.request(record.id)!.events.filter((e) => e.type === "write").length
    let written = writes()
    for (;;) {
      await sleep(200)
      const now = writes()
      if ((now > 0 && now === written) || mock.request(record.id)!.outcome !== "pending") break
      written = now
    }
    written = writes()
    // 64,017 events (tens of MB): far more than the socket buffers hold
    assert.ok(written < 32_000, `${written} writes while the client read nothing`)
    assert.equal(mock.request(record.id)!.outcome, "pending")
    socket.destroy()
    assert.equal((await mock.waitForDisconnect(record.id, { timeoutMs: 2000 })).outcome, "disconnected")
  }, 20_000)

  it("ends stalled responses when it closes", async () => {
    const other = await serveNode(createMockFriendli())
    const res = await fetch(`${other.url}${PATH}`, {
      method: "POST",
      headers: { ...headers, "x-mock-fault": "stall" },
      body: JSON.stringify(completionsBody()),
    })
    assert.equal(res.status, 200)
    // A stalled body never ends by itself: that it ends at all (within the test's timeout) is the behaviour.
    await other.close()
    await res.text().catch(() => "")
    await assert.rejects(fetch(`${other.url}${PATH}`), "the closed server still answers")
  })
})

describe("the node one-liner", () => {
  it("starts a standalone mock that prints its URL and answers", async () => {
    const require = createRequire(import.meta.url)
    const tsx = require.resolve("tsx")
    const child = spawn(
      process.execPath,
      [
        "--import",
        tsx,
        new URL("../../src/bin/node.ts", import.meta.url).pathname,
        "--port",
        "0",
        "--token",
        "cli-token",
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    )
    try {
      let out = ""
      child.stdout!.setEncoding("utf8")
      for await (const chunk of child.stdout!) {
        out += chunk as string
        if (out.includes("\n")) break
      }
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      assert.ok(url, out)
      const denied = await fetch(`${url}${PATH}`, { method: "POST", headers, body: JSON.stringify(completionsBody()) })
      assert.equal(denied.status, 401)
      const res = await fetch(`${url}${PATH}`, {
        method: "POST",
        headers: { ...headers, authorization: "Bearer cli-token" },
        body: JSON.stringify(completionsBody({ max_tokens: 3 })),
      })
      assert.equal((await readStream(res)).done, true)
    } finally {
      child.kill("SIGTERM")
      await once(child, "exit")
    }
  }, 20_000)
})
