import assert from "node:assert/strict"
import { FriendliClient } from "@friendli-stream/client"
import { describe, it } from "@friendli-stream/test-harness"
import { collect, completionRequest } from "@friendli-stream/test-harness/fixtures"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import { TOKEN } from "../mock.ts"
import { type Context, chunksSent, eventually, lastApiRequest } from "../support.ts"

/** A slow stream: one event every 30 ms, 40 of them (about 1.2 s). */
const slow = () => completionRequest("Tell me a long story", { max_tokens: 40, ignore_eos: true })
const SLOW = { "x-mock-fault": "delay:30" }

export const cancelTests = (c: Context): void => {
  /**
   * Waits for the mock to see the latest request's client go away (the event, not a delay threshold), and asserts that
   * it came before the stream's end: a disconnect with chunks left to send is one the cancellation caused. The
   * measured delay after `at` is in the messages.
   */
  const assertDisconnected = async (at: number): Promise<void> => {
    const record = await c.mock().waitForDisconnect((await lastApiRequest(c.mock())).id)
    const delay = record.disconnectedAt! - at
    assert.equal(record.outcome, "disconnected", `outcome ${record.outcome}, ${delay} ms after the abort`)
    const sent = chunksSent(record)
    assert.ok(sent < 40, `the mock sent all ${sent} chunks before it saw the disconnect, ${delay} ms after the abort`)
  }

  describe(`cancellation closes the connection, seen by the mock soon after`, () => {
    it("abort() on the handle", async () => {
      const stream = c.client({ headers: SLOW }).completions.stream(slow())
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
      assert.equal(stream.aborted, true)
      await assertDisconnected(abortedAt)
      await assert.rejects(stream.finalCompletion(), { name: "AbortError" })
    })

    it("an AbortSignal passed with the request", async () => {
      const controller = new AbortController()
      const stream = c.client({ headers: SLOW }).completions.stream(slow(), { signal: controller.signal })
      const reason = new Error("stop")
      let abortedAt = 0
      const { items, error } = await collect({
        [Symbol.asyncIterator]: () => {
          const it = stream[Symbol.asyncIterator]()
          return {
            next: async () => {
              const r = await it.next()
              if (!r.done && abortedAt === 0) {
                abortedAt = -1
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
      await assertDisconnected(abortedAt)
    })

    it("break in for await", async () => {
      const stream = c.client({ headers: SLOW }).completions.stream(slow())
      let n = 0
      let brokeAt = 0
      for await (const _ of stream) {
        if (++n === 2) {
          brokeAt = Date.now()
          break
        }
      }
      await assertDisconnected(brokeAt)
    })

    it("cancelling the re-encoded ReadableStream", async () => {
      const body = c.client({ headers: SLOW }).completions.stream(slow()).toReadableStream()
      const reader = (body as ReadableStream<Uint8Array>).getReader()
      const first = await reader.read()
      assert.match(new TextDecoder().decode(first.value), /^data: \{/)
      const cancelledAt = Date.now()
      await reader.cancel()
      await assertDisconnected(cancelledAt)
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
        Effect.provide(program, c.adapter.layer({ token: TOKEN, baseURL: c.baseURL(), headers: SLOW })),
      )
      assert.equal(n, 2)
      await assertDisconnected(tookAt)
    })

    it("interrupting the fiber that runs the stream", async () => {
      let interruptedAt = 0
      const before = (await c.mock().requests()).length
      await Effect.runPromise(
        Effect.gen(function* () {
          const client = yield* FriendliClient.FriendliClient
          const fiber = yield* Effect.forkChild(Stream.runDrain(client.completions.stream(slow())))
          yield* Effect.promise(() =>
            eventually("the stream has sent a chunk", async () =>
              (await c.mock().requests())
                .slice(before)
                .some((r) => r.outcome === "pending" && r.events.some((e) => e.type === "chunk")),
            ),
          )
          interruptedAt = Date.now()
          yield* Fiber.interrupt(fiber)
        }).pipe(Effect.provide(c.adapter.layer({ token: TOKEN, baseURL: c.baseURL(), headers: SLOW }))),
      )
      await assertDisconnected(interruptedAt)
    })
  })
}
