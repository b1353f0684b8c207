import assert from "node:assert/strict"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import { FriendliClient, layer, toNodeReadable } from "../src/index.ts"
import { collect, completionRequest, eventually, type Harness, startMock, TOKEN } from "./support.ts"

let h: Harness

beforeAll(async () => {
  h = await startMock()
})

afterAll(async () => {
  await h.close()
})

/** A slow stream: one event every 30 ms, about 40 of them. */
const slow = () => completionRequest("Tell me a long story", { max_tokens: 40 })
const SLOW = { "x-mock-fault": "delay:30" }

/** Waits for the mock to see the disconnect of the latest request, and returns how long after `at` it came. */
const disconnectDelay = async (at: number): Promise<number> => {
  const record = await h.mock.waitForDisconnect(h.mock.lastRequest()!.id, { timeoutMs: 1000 })
  assert.equal(record.outcome, "disconnected")
  return record.disconnectedAt! - at
}

describe("cancellation closes the connection, seen by the mock within 50 ms", () => {
  it("abort() on the handle", async () => {
    const stream = h.client({ headers: SLOW }).completions.stream(slow())
    let n = 0
    let abortedAt = 0
    const { error } = await collect({
      [Symbol.asyncIterator]: () => {
        const it = stream[Symbol.asyncIterator]()
        return {
          next: async () => {
            if (++n === 3) {
              abortedAt = Date.now()
              stream.abort()
            }
            return it.next()
          },
        }
      },
    })
    assert.equal((error as Error).name, "AbortError")
    const d = await disconnectDelay(abortedAt)
    assert.ok(d <= 50, `${d} ms`)
    await assert.rejects(stream.finalCompletion(), { name: "AbortError" })
  })

  it("an AbortSignal passed with the request", async () => {
    const controller = new AbortController()
    const stream = h.client({ headers: SLOW }).completions.stream(slow(), { signal: controller.signal })
    const reason = new Error("stop")
    let abortedAt = 0
    const { items, error } = await collect({
      [Symbol.asyncIterator]: () => {
        const it = stream[Symbol.asyncIterator]()
        return {
          next: async () => {
            const r = await it.next()
            if (!r.done && abortedAt === 0) {
              setTimeout(() => {
                abortedAt = Date.now()
                controller.abort(reason)
              }, 10)
            }
            return r
          },
        }
      },
    })
    assert.ok(items.length >= 1)
    assert.equal(error, reason)
    assert.ok((await disconnectDelay(abortedAt)) <= 50)
  })

  it("break in for await", async () => {
    const stream = h.client({ headers: SLOW }).completions.stream(slow())
    let n = 0
    let brokeAt = 0
    for await (const _ of stream) {
      if (++n === 2) {
        brokeAt = Date.now()
        break
      }
    }
    assert.ok((await disconnectDelay(brokeAt)) <= 50)
  })

  it("interrupting the Effect stream (Stream.take)", async () => {
    let tookAt = 0
    const program = Effect.gen(function* () {
      const client = yield* FriendliClient.FriendliClient
      const chunks = yield* client.completions.stream(slow()).pipe(Stream.take(2), Stream.runCollect)
      tookAt = Date.now()
      return chunks.length
    })
    const n = await Effect.runPromise(
      Effect.provide(program, layer({ token: TOKEN, baseURL: h.baseURL, headers: SLOW })),
    )
    assert.equal(n, 2)
    assert.ok((await disconnectDelay(tookAt)) <= 50)
  })

  it("interrupting the fiber that runs the stream", async () => {
    let interruptedAt = 0
    await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* FriendliClient.FriendliClient
        const fiber = yield* Effect.fork(Stream.runDrain(client.completions.stream(slow())))
        yield* Effect.promise(() =>
          h.mock.waitForRequest((r) => r.events.some((e) => e.type === "chunk" && r.outcome === "pending")),
        )
        interruptedAt = Date.now()
        yield* Fiber.interrupt(fiber)
      }).pipe(Effect.provide(layer({ token: TOKEN, baseURL: h.baseURL, headers: SLOW }))),
    )
    assert.ok((await disconnectDelay(interruptedAt)) <= 50)
  })

  it("destroying the Node Readable view", async () => {
    const readable = toNodeReadable(h.client({ headers: SLOW }).completions.stream(slow()))
    let text = ""
    let destroyedAt = 0
    for await (const piece of readable) {
      text += String(piece)
      if (text.includes("\n\n")) {
        destroyedAt = Date.now()
        readable.destroy()
        break
      }
    }
    assert.match(text, /^data: \{/)
    assert.ok((await disconnectDelay(destroyedAt)) <= 50)
  })

  it("the objects Readable view yields chunks, and the SSE view ends with [DONE]", async () => {
    const client = h.client()
    const objects = await collect(toNodeReadable(client.completions.stream(completionRequest()), { mode: "objects" }))
    assert.ok(objects.items.length > 0)
    let sse = ""
    for await (const piece of toNodeReadable(client.completions.stream(completionRequest()))) sse += String(piece)
    assert.ok(sse.endsWith("data: [DONE]\n\n"))
    assert.equal(sse.split("\n\n").length - 2, objects.items.length)
  })

  it("leaves no connection open once every stream was cancelled and the clients closed", async () => {
    await h.close()
    await eventually("no connection is left", () => h.openSockets() === 0)
    h = await startMock()
  })
})
