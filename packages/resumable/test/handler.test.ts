import assert from "node:assert/strict"
import { FriendliClient, makePromiseClient } from "@friendli-stream/client"
import { CompletionStream, SseResponse } from "@friendli-stream/stream"
import { afterAll, beforeAll, describe, it } from "@friendli-stream/test-harness"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Stream from "effect/Stream"
import { ResumableHandler } from "../src/index.ts"
import {
  eventsOf,
  type Harness,
  post,
  readThenDrop,
  resume,
  sentData,
  startHarness,
  startWebHarness,
  streamUrl,
  uniquePrompt,
  upstreamOf,
} from "./support.ts"

const idOf = (url: string): string => url.slice(url.lastIndexOf("/") + 1)

/** The client's decoder on a response of the handler: the chunks, and the failure it reports. */
const decode = async (response: Response) => {
  const chunks: Array<unknown> = []
  const exit = await Effect.runPromiseExit(
    Stream.runForEach(CompletionStream.fromReadableStream(response.body as ReadableStream<Uint8Array>), (chunk) =>
      Effect.sync(() => chunks.push(chunk)),
    ),
  )
  const error = Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Fail") : undefined
  return { chunks, error: error?._tag === "Fail" ? (error.error as { _tag: string; code?: unknown }) : undefined }
}

describe("ResumableHandler", () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ retentionMs: 60_000 })
  })
  afterAll(async () => {
    await h?.close()
  })

  it("answers a start with the mock's events, each with an id, a Location, and [DONE] last", async () => {
    const prompt = uniquePrompt("uninterrupted")
    const response = await post(h, { prompt, max_tokens: 8 })
    assert.equal(response.status, 200)
    assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8")
    assert.equal(response.headers.get("cache-control"), "no-cache, no-transform")
    assert.equal(response.headers.get("x-accel-buffering"), "no")
    const url = streamUrl(h, response)
    assert.match(new URL(url).pathname, /^\/v1\/stream\/[A-Za-z0-9_-]{22}$/)
    const events = await eventsOf(response)
    const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
    assert.deepEqual(
      events.map((e) => e.data),
      sentData(record),
    )
    assert.equal(events.at(-1)?.data, "[DONE]")
    assert.deepEqual(
      events.map((e) => e.id),
      events.map((_, i) => `${idOf(url)}.${i + 1}`),
    )
  })

  it("resumes a dropped reader after its Last-Event-ID: every event exactly once, in order, then 204 after the end", async () => {
    const prompt = uniquePrompt("dropped")
    const controller = new AbortController()
    const response = await post(h, { prompt, max_tokens: 12, faults: "delay:5" }, controller.signal)
    const url = streamUrl(h, response)
    const head = await readThenDrop(response, 3, controller)
    assert.equal(head.length, 3)
    const rest = await eventsOf(await resume(url, head.at(-1)?.id))
    const whole = await eventsOf(await resume(url))
    assert.deepEqual([...head, ...rest], whole)
    const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
    assert.equal(record.outcome, "completed", "the upstream went on when the reader went away")
    assert.deepEqual(
      whole.map((e) => e.data),
      sentData(record),
    )
    const after = await resume(url, whole.at(-1)?.id)
    assert.equal(after.status, 204)
    assert.equal(await after.text(), "")
  })

  it("answers 400 naming a Last-Event-ID past the stream's last stored event, on a live and on an ended stream, instead of waiting", async () => {
    const live = await post(h, { prompt: uniquePrompt("made-up seq live"), max_tokens: 40, faults: "delay:200" })
    const liveUrl = streamUrl(h, live)
    const abort = new AbortController()
    const seen = await readThenDrop(live, 1, abort)
    const made = `${idOf(liveUrl)}.1000`
    const refused = await resume(liveUrl, made)
    assert.equal(refused.status, 400)
    const body = (await refused.json()) as { error: { message: string; code: string } }
    assert.equal(body.error.code, "invalid_event_id")
    assert.ok(body.error.message.includes(JSON.stringify(made)), body.error.message)
    // the stream itself goes on: a resume from the event read gets the rest
    const rest = await resume(liveUrl, seen.at(-1)?.id)
    assert.equal(rest.status, 200)
    await rest.body?.cancel()
    await fetch(liveUrl, { method: "DELETE" })

    const ended = await post(h, { prompt: uniquePrompt("made-up seq ended"), max_tokens: 3 })
    const endedUrl = streamUrl(h, ended)
    const whole = await eventsOf(ended)
    const last = whole.at(-1)?.id ?? ""
    assert.equal((await resume(endedUrl, last)).status, 204, "after the end's own id: nothing more")
    const past = `${idOf(endedUrl)}.${Number(last.slice(last.lastIndexOf(".") + 1)) + 1}`
    const answer = await resume(endedUrl, past)
    assert.equal(answer.status, 400)
    const pastBody = (await answer.json()) as { error: { message: string; code: string } }
    assert.equal(pastBody.error.code, "invalid_event_id")
    assert.ok(pastBody.error.message.includes(JSON.stringify(past)), pastBody.error.message)
  })

  it("resumes again after the end: the rest and the end, from any earlier event", async () => {
    const prompt = uniquePrompt("after the end")
    const response = await post(h, { prompt, max_tokens: 6 })
    const url = streamUrl(h, response)
    const whole = await eventsOf(response)
    for (let k = 1; k < whole.length; k++) {
      assert.deepEqual(await eventsOf(await resume(url, whole[k - 1]?.id)), whole.slice(k), `after event ${k}`)
    }
  })

  it("replays a live stream from its first event to a GET without Last-Event-ID, then goes on live", async () => {
    const prompt = uniquePrompt("live replay")
    const response = await post(h, { prompt, max_tokens: 20, faults: "delay:10" })
    const url = streamUrl(h, response)
    const first = eventsOf(response)
    const second = eventsOf(await resume(url))
    const [a, b] = await Promise.all([first, second])
    const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
    assert.deepEqual(
      a?.map((e) => e.data),
      sentData(record),
    )
    assert.deepEqual(b, a)
  })

  it("resumes from GET of the URL that started the stream with Last-Event-ID, as EventSource reconnects", async () => {
    const prompt = uniquePrompt("event source")
    const start = `${h.base}?prompt=${encodeURIComponent(prompt)}&max_tokens=8&faults=delay:5`
    const controller = new AbortController()
    const response = await fetch(start, { signal: controller.signal })
    assert.equal(response.status, 200)
    const url = streamUrl(h, response)
    const head = await readThenDrop(response, 2, controller)
    const rest = await eventsOf(await resume(start, head.at(-1)?.id))
    assert.deepEqual([...head, ...rest], await eventsOf(await resume(url)))
    assert.equal(h.mock.requests.filter((r) => (r.body as { prompt?: string }).prompt === prompt).length, 1)
    assert.equal((await resume(start, rest.at(-1)?.id)).status, 204, "after the end: 204, EventSource stops")
    const bad = await resume(start, "nonsense")
    assert.equal(bad.status, 400)
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /"nonsense"/)
  })

  it("takes the Last-Event-ID from the lastEventId query parameter too (for curl)", async () => {
    const response = await post(h, { prompt: uniquePrompt("query"), max_tokens: 5 })
    const url = streamUrl(h, response)
    const whole = await eventsOf(response)
    const rest = await eventsOf(await fetch(`${url}?lastEventId=${encodeURIComponent(whole[1]?.id ?? "")}`))
    assert.deepEqual(rest, whole.slice(2))
  })

  it("answers 400 naming a malformed or foreign Last-Event-ID", async () => {
    const one = streamUrl(h, await post(h, { prompt: uniquePrompt("ids one"), max_tokens: 2 }))
    const two = await post(h, { prompt: uniquePrompt("ids two"), max_tokens: 2 })
    const foreign = (await eventsOf(two))[0]?.id ?? ""
    for (const [lastEventId, reason] of [
      ["garbage", "is not an event id"],
      [`${idOf(one)}.0`, "is not an event id"],
      [foreign, "belongs to stream"],
    ] as const) {
      const response = await resume(one, lastEventId)
      assert.equal(response.status, 400, lastEventId)
      const body = (await response.json()) as { error: { message: string; type: string; code: string } }
      assert.equal(body.error.code, "invalid_event_id")
      assert.ok(body.error.message.includes(JSON.stringify(lastEventId)), body.error.message)
      assert.ok(body.error.message.includes(reason), body.error.message)
    }
  })

  it("answers 404 with a JSON error for a stream it does not know, on GET and DELETE", async () => {
    for (const path of ["AAAAAAAAAAAAAAAAAAAAAA", "not-an-id"]) {
      for (const method of ["GET", "DELETE"]) {
        const response = await fetch(`${h.base}/${path}`, { method })
        assert.equal(response.status, 404, `${method} ${path}`)
        const body = (await response.json()) as { error: { message: string; type: string; code: string } }
        assert.equal(body.error.code, "stream_not_found")
        assert.ok(body.error.message.includes(path), body.error.message)
      }
    }
  })

  it("answers the app's own response to a bad start, and creates no stream", async () => {
    const before = (await h.size()).streams
    const response = await fetch(h.base, { method: "POST", body: JSON.stringify({ nothing: true }) })
    assert.equal(response.status, 400)
    assert.equal(response.headers.get("location"), null)
    assert.equal((await h.size()).streams, before)
  })

  it("answers 405 naming the allowed methods", async () => {
    const start = await fetch(h.base, { method: "PUT" })
    assert.equal(start.status, 405)
    assert.equal(start.headers.get("allow"), "POST, GET")
    const stream = await fetch(`${h.base}/AAAAAAAAAAAAAAAAAAAAAA`, { method: "POST" })
    assert.equal(stream.status, 405)
    assert.equal(stream.headers.get("allow"), "GET, DELETE")
  })

  it("cancels with DELETE: readers get a cancelled end, the upstream request is aborted, a second DELETE answers 409", async () => {
    const prompt = uniquePrompt("cancel")
    const response = await post(h, { prompt, max_tokens: 400, faults: "delay:20" })
    const url = streamUrl(h, response)
    const reader = eventsOf(response)
    const decoded = decode(await resume(url))
    await h.mock.waitForRequest((r) => (r.body as { prompt?: string } | undefined)?.prompt === prompt)
    const cancel = await fetch(url, { method: "DELETE" })
    assert.equal(cancel.status, 200)
    assert.deepEqual(await cancel.json(), { id: idOf(url), status: "cancelled" })
    const events = await reader
    const end = events.at(-1)
    assert.equal(end?.event, "error")
    assert.equal((JSON.parse(end?.data ?? "{}") as { error: { code: string } }).error.code, "cancelled")
    assert.ok(events.length < 400)
    await h.mock.waitForDisconnect(upstreamOf(h.mock, prompt).id)
    const { error } = await decoded
    assert.equal(error?._tag, "ApiError", "our decoder reports the cancelled end as a typed failure")
    assert.equal(error?.code, "cancelled")
    const again = await fetch(url, { method: "DELETE" })
    assert.equal(again.status, 409)
    const body = (await again.json()) as { error: { code: string; message: string } }
    assert.equal(body.error.code, "stream_already_ended")
    assert.deepEqual(await eventsOf(await resume(url)), events, "the cancelled stream reads the same afterwards")
  })

  it("ends with the upstream's in-stream error as it sent it, which our decoder reports as ApiError", async () => {
    const prompt = uniquePrompt("in-stream error")
    const response = await post(h, { prompt, max_tokens: 10, faults: "error:3" })
    const url = streamUrl(h, response)
    const events = await eventsOf(response)
    const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
    assert.deepEqual(
      events.map((e) => e.data),
      sentData(record),
    )
    assert.equal(events.length, 4)
    assert.equal(events.at(-1)?.event, "error")
    const { chunks, error } = await decode(await resume(url))
    assert.equal(chunks.length, 3)
    assert.equal(error?._tag, "ApiError")
    assert.equal(error?.code, "mock_stream_error")
  })

  it("ends a cut upstream with a truncated end", async () => {
    const prompt = uniquePrompt("truncated")
    const response = await post(h, { prompt, max_tokens: 10, faults: "truncate:3" })
    const url = streamUrl(h, response)
    const events = await eventsOf(response)
    assert.equal(events.length, 4)
    assert.equal(events.at(-1)?.event, "error")
    assert.equal((JSON.parse(events.at(-1)?.data ?? "{}") as { error: { code: string } }).error.code, "truncated")
    const { chunks, error } = await decode(await resume(url))
    assert.equal(chunks.length, 3)
    assert.equal(error?.code, "truncated")
  })

  it("ends a stream whose upstream request failed before its first event with that error", async () => {
    const response = await post(h, { prompt: uniquePrompt("status"), max_tokens: 10, faults: "status:503" })
    assert.equal(response.status, 200)
    const events = await eventsOf(response)
    assert.equal(events.length, 1)
    assert.equal(events[0]?.event, "error")
    const body = JSON.parse(events[0]?.data ?? "{}") as { error: { message: string; type: string } }
    assert.equal(body.error.type, "ServerError")
  })
})

describe("ResumableHandler keep-alives", () => {
  it("sends a keep-alive comment while the first token is late (the mock's delay-first), and the same events after it", async () => {
    const h = await startHarness({ keepAliveMs: 20 })
    try {
      const prompt = uniquePrompt("keep-alive")
      const response = await post(h, { prompt, max_tokens: 4, faults: "delay-first:400" })
      assert.equal(response.status, 200)
      const reader = response.body!.getReader()
      // the mock has not answered yet: the first bytes out can only be a keep-alive
      assert.equal(new TextDecoder().decode((await reader.read()).value), SseResponse.KEEP_ALIVE)
      const rest = new Response(
        new ReadableStream<Uint8Array>({
          pull: async (controller) => {
            const { done, value } = await reader.read()
            if (done) controller.close()
            else controller.enqueue(value)
          },
        }),
      )
      const events = await eventsOf(rest)
      const record = await h.mock.waitForSettled(upstreamOf(h.mock, prompt).id)
      assert.deepEqual(
        events.map((e) => e.data),
        sentData(record),
      )
    } finally {
      await h.close()
    }
  })
})

describe("ResumableHandler in Promise form (toWebHandler)", () => {
  it("serves the same routes on a memory store of its own", async () => {
    const h = await startWebHarness()
    try {
      const prompt = uniquePrompt("web")
      const response = await post(h, { prompt, max_tokens: 5 })
      const url = streamUrl(h, response)
      const whole = await eventsOf(response)
      assert.equal(whole.at(-1)?.data, "[DONE]")
      assert.deepEqual(await eventsOf(await resume(url, whole[0]?.id)), whole.slice(1))
      assert.equal(await h.handler.cancel(idOf(url)), "already_ended")
      assert.ok(h.handler.matches(new Request(url)))
      assert.ok(!h.handler.matches(new Request(`${new URL(url).origin}/v1/other`)))
    } finally {
      await h.close()
    }
  })

  it("produces from a Promise client's stream handle, and a DELETE aborts its request through the start's signal", async () => {
    const mock = createMockFriendli()
    const mockServer = await serveNode(mock)
    const client = makePromiseClient(FriendliClient.fetchHttpClient(), {
      deployment: "container",
      baseURL: `${mockServer.url}/_fault/delay:20`,
      maxRetries: 0,
    })
    const handler = ResumableHandler.toWebHandler({
      start: async (request, { signal }) => {
        const { prompt, max_tokens } = (await request.json()) as { prompt: string; max_tokens: number }
        return client.completions.stream({ model: "mock-model", prompt, max_tokens }, { signal })
      },
    })
    const server = await serveNode(handler.fetch)
    try {
      const h = { base: `${server.url}/v1/stream` }
      const first = uniquePrompt("promise")
      const events = await eventsOf(await post(h, { prompt: first, max_tokens: 4 }))
      assert.deepEqual(
        events.map((e) => e.data),
        sentData(await mock.waitForSettled(upstreamOf(mock, first).id)),
      )
      assert.equal(events.at(-1)?.data, "[DONE]")
      const prompt = uniquePrompt("promise cancel")
      const long = await post(h, { prompt, max_tokens: 400 })
      const url = streamUrl(h, long)
      const reading = eventsOf(long)
      const record = await mock.waitForRequest((r) => (r.body as { prompt?: string } | undefined)?.prompt === prompt)
      assert.equal((await fetch(url, { method: "DELETE" })).status, 200)
      assert.equal(
        (JSON.parse((await reading).at(-1)?.data ?? "{}") as { error: { code: string } }).error.code,
        "cancelled",
      )
      await mock.waitForDisconnect(record.id)
    } finally {
      await handler.close()
      await server.close()
      await mockServer.close()
    }
  })

  it("ends a stream whose upstream or encoding throws with an error end naming it, at once; a start that throws is a 500", async () => {
    const handler = ResumableHandler.toWebHandler<number>({
      start: (request) => {
        const which = new URL(request.url).searchParams.get("case")
        if (which === "start") throw new Error("the app's start threw")
        return which === "upstream"
          ? Stream.concat(Stream.make(1, 2), Stream.die(new Error("the upstream broke")))
          : Stream.make(1, 2, 3)
      },
      encode: (n) => {
        if (n === 3) throw new Error("cannot encode 3")
        return { data: String(n) }
      },
    })
    const server = await serveNode(handler.fetch)
    try {
      for (const [which, message] of [
        ["upstream", "the upstream broke"],
        ["encode", "cannot encode 3"],
      ] as const) {
        const events = await eventsOf(await fetch(`${server.url}/v1/stream?case=${which}`))
        assert.deepEqual(
          events.slice(0, 2).map((e) => e.data),
          ["1", "2"],
        )
        assert.equal(events.length, 3)
        assert.equal(events[2]?.event, "error")
        assert.ok(events[2]?.data.includes(message), events[2]?.data)
      }
      const failed = await fetch(`${server.url}/v1/stream?case=start`)
      assert.equal(failed.status, 500)
      const body = (await failed.json()) as { error: { message: string; code: string } }
      assert.equal(body.error.code, "start_failed")
      assert.match(body.error.message, /the app's start threw/)
    } finally {
      await handler.close()
      await server.close()
    }
  })
})
