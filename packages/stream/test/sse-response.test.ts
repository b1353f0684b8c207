import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { CompletionStream, SseResponse } from "../src/index.ts"
import { bytes, completionChunk, pieceStream, runAll, sseBody } from "./support.ts"

/** A byte stream the test writes to: `push` a string, `end` it; `cancelled` once its reader let go. */
const controlled = () => {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let cancelled = false
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c
    },
    cancel: () => {
      cancelled = true
    },
  })
  return {
    body,
    push: (text: string) => controller.enqueue(bytes(text)),
    end: () => controller.close(),
    cancelled: () => cancelled,
  }
}

const text = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk)

describe("SseResponse", () => {
  it("has the headers that keep proxies from buffering or transforming the events", () => {
    assert.deepEqual(SseResponse.HEADERS, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    })
  })

  it("decodes a stream with keep-alive comments between and before its events to the same items", async () => {
    const chunks = [completionChunk("Hel"), completionChunk("lo"), completionChunk("", { finish: "stop" })]
    const plain = sseBody(chunks)
    const events = plain.split(/(?<=\n\n)/)
    const withComments = events.map((e) => `${SseResponse.KEEP_ALIVE}${e}`).join("") + SseResponse.KEEP_ALIVE
    const a = await runAll(CompletionStream.decode(pieceStream([bytes(plain)])))
    const b = await runAll(CompletionStream.decode(pieceStream([bytes(withComments)])))
    assert.equal(b.error, undefined)
    assert.ok(withComments.split(SseResponse.KEEP_ALIVE).length - 1 >= events.length)
    assert.deepEqual(b.items, a.items)
    assert.equal(a.items.length, 3)
  })

  it("writes a keep-alive comment while its source sends nothing, then the source's bytes unchanged", async () => {
    const source = controlled()
    const reader = SseResponse.withKeepAlive(source.body, 5).getReader()
    // nothing was pushed: the first read can only end with a keep-alive
    assert.equal(text((await reader.read()).value), ": keep-alive\n\n")
    assert.equal(text((await reader.read()).value), ": keep-alive\n\n")
    source.push("data: 1\n\n")
    let next = text((await reader.read()).value)
    // a keep-alive may have gone out between the push and this read; the data comes right after it
    while (next === SseResponse.KEEP_ALIVE) next = text((await reader.read()).value)
    assert.equal(next, "data: 1\n\n")
    source.end()
    let done = await reader.read()
    while (!done.done) done = await reader.read()
    assert.equal(done.done, true)
  })

  it("cancels its source when its reader goes away", async () => {
    const source = controlled()
    const reader = SseResponse.withKeepAlive(source.body, 5).getReader()
    await reader.read()
    await reader.cancel()
    assert.equal(source.cancelled(), true)
  })

  it("passes the source on as it is for a keepAliveMs of 0", () => {
    const source = controlled()
    assert.equal(SseResponse.withKeepAlive(source.body, 0), source.body)
  })
})
