import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import { CompletionStream, SseError, StreamTruncated } from "../src/index.ts"
import { bytes, completionChunk, runAll, sseBody, testBody } from "./support.ts"

const event = (text: string): Uint8Array => bytes(sseBody([completionChunk(text)], { done: false }))
const DONE = bytes("data: [DONE]\n\n")

/** A body fed by hand: each `push` is one read; records whether it was cancelled. */
const manualBody = () => {
  const state = { cancelled: false }
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c
      },
      cancel() {
        state.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  return {
    body,
    state,
    push: (b: Uint8Array) => controller.enqueue(b),
    close: () => controller.close(),
  }
}

/** Pulls batches one by one, as `Stream.runForEach` does, but lets the test act between them. */
const withPull = <A>(
  stream: Stream.Stream<A, unknown>,
  f: (pull: () => Promise<Exit.Exit<ReadonlyArray<A>, unknown>>) => Promise<void>,
): Promise<void> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(Stream.toPull(stream), (pull) => Effect.promise(() => f(() => Effect.runPromiseExit(pull)))),
    ),
  )

const texts = <A extends { readonly choices: ReadonlyArray<{ readonly text: string }> }>(
  exit: Exit.Exit<ReadonlyArray<A>, unknown>,
): Array<string | undefined> => {
  assert.ok(Exit.isSuccess(exit), "expected a batch")
  return exit.value.map((c) => c.choices[0]?.text)
}

/** Settles the microtasks and one macrotask: whatever was going to happen without new bytes has happened. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

describe("CompletionStream.fromReadableStream (batches of a body)", () => {
  it("hands a chunk on as soon as its bytes arrive, without waiting for the next read", async () => {
    const m = manualBody()
    await withPull(CompletionStream.fromReadableStream(m.body), async (pull) => {
      const first = pull()
      m.push(event("a"))
      // No more bytes are coming for now: the batch must not wait for them.
      assert.deepEqual(texts(await first), ["a"])
      m.push(event("b"))
      assert.deepEqual(texts(await pull()), ["b"])
      m.push(DONE)
      const end = await pull()
      assert.ok(Exit.isFailure(end), "the stream ends after [DONE]")
    })
  })

  it("hands every chunk of one read on in one batch", async () => {
    const m = manualBody()
    m.push(new Uint8Array([...event("a"), ...event("b"), ...event("c"), ...event("d")]))
    await withPull(CompletionStream.fromReadableStream(m.body), async (pull) => {
      assert.deepEqual(texts(await pull()), ["a", "b", "c", "d"])
      m.push(DONE)
      assert.ok(Exit.isFailure(await pull()))
    })
  })

  it("reads on within one pull until a read completes a chunk", async () => {
    const m = manualBody()
    const whole = event("a")
    for (let i = 0; i < whole.length; i += 3) m.push(whole.subarray(i, i + 3))
    await withPull(CompletionStream.fromReadableStream(m.body), async (pull) => {
      assert.deepEqual(texts(await pull()), ["a"])
    })
  })

  it("does not hold a chunk back behind a read that has no whole event yet", async () => {
    const m = manualBody()
    const whole = event("a")
    const next = event("b")
    m.push(whole)
    m.push(next.subarray(0, 5)) // the start of the next event is already there
    await withPull(CompletionStream.fromReadableStream(m.body), async (pull) => {
      assert.deepEqual(texts(await pull()), ["a"])
      m.push(next.subarray(5))
      m.push(DONE)
      assert.deepEqual(texts(await pull()), ["b"])
    })
  })

  it("stops reading the body while nobody pulls", async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => event(String(i)))
    const { body, state } = testBody(pieces, { slow: true })
    await withPull(CompletionStream.fromReadableStream(body), async (pull) => {
      assert.deepEqual(texts(await pull()), ["0"])
      await settle()
      const after = state.pulls
      await settle()
      await settle()
      // The read that completed the first chunk, and none after it.
      assert.ok(after <= 1, `${after} reads for one batch`)
      assert.equal(state.pulls, after, "the body was read while nobody pulled")
    })
  })

  it("delivers every chunk decoded before a read failure, then fails with SseError ReadFailed", async () => {
    const { body } = testBody([event("a"), event("b")], { error: new Error("connection reset") })
    const { items, error } = await runAll(CompletionStream.fromReadableStream(body))
    assert.deepEqual(
      items.map((c) => c.choices[0]?.text),
      ["a", "b"],
    )
    assert.ok(error instanceof SseError)
    assert.equal(error.reason, "ReadFailed")
    assert.match(error.message, /connection reset/)
  })

  it("delivers the chunks before a cut in their own batch, then fails with StreamTruncated", async () => {
    const m = manualBody()
    m.push(event("a"))
    m.close()
    await withPull(CompletionStream.fromReadableStream(m.body), async (pull) => {
      assert.deepEqual(texts(await pull()), ["a"])
      const end = await pull()
      assert.ok(Exit.isFailure(end))
      const failure = Cause.findErrorOption(end.cause)
      assert.ok(failure._tag === "Some" && failure.value instanceof StreamTruncated)
    })
  })

  it("cancels the body when the fiber is interrupted while it waits for bytes", async () => {
    const m = manualBody()
    m.push(event("a"))
    const seen: Array<string | undefined> = []
    const fiber = Effect.runFork(
      Stream.runForEach(CompletionStream.fromReadableStream(m.body), (c) =>
        Effect.sync(() => seen.push(c.choices[0]?.text)),
      ),
    )
    await settle()
    assert.deepEqual(seen, ["a"])
    await Effect.runPromise(Fiber.interrupt(fiber))
    assert.equal(m.state.cancelled, true)
  })
})
