// The handler under test on a real socket, producing from the mock Friendli endpoint (on a socket too) through the
// Effect client; readers read it with fetch and the harness's SSE parser.
import { FriendliClient } from "@friendli-stream/stream"
import { parseSse, readBody, type SseEvent } from "@friendli-stream/test-harness/fixtures"
import { createMockFriendli, jsonSent, type MockFriendli, type RequestRecord } from "@friendli-stream/testing"
import { type RunningServer, serveNode } from "@friendli-stream/testing/node"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { ResumableHandler, type ResumableStore } from "../src/index.ts"

export { parseSse, readBody, type SseEvent }

export const MODEL = "mock-model"

/** What a test starts a stream with: the body of `POST /v1/stream`. */
export interface StartBody {
  readonly prompt: string
  readonly max_tokens?: number
  /** Mock faults for the upstream request (`/_fault/SPEC/` in the client's base URL). */
  readonly faults?: string
}

export interface Harness {
  readonly mock: MockFriendli
  readonly mockServer: RunningServer
  readonly handler: ResumableHandler.WebHandler
  readonly server: RunningServer
  /** `http://127.0.0.1:PORT/v1/stream` */
  readonly base: string
  close(): Promise<void>
}

export interface HarnessOptions {
  readonly leaseMs?: number
  readonly retentionMs?: number
  readonly maxDurationMs?: number
  readonly pageSize?: number
  readonly store?: Layer.Layer<ResumableStore, unknown>
}

/** The mock, the handler producing from it, both served on 127.0.0.1. */
export const startHarness = async (options: HarnessOptions = {}): Promise<Harness> => {
  const mock = createMockFriendli()
  const mockServer = await serveNode(mock)
  const handler = ResumableHandler.toWebHandler({
    ...options,
    start: (request) =>
      Effect.gen(function* () {
        const body = (yield* Effect.promise(() => request.json())) as StartBody
        if (typeof body.prompt !== "string") return new Response("prompt?", { status: 400 })
        const baseURL = body.faults === undefined ? mockServer.url : `${mockServer.url}/_fault/${body.faults}`
        const client = yield* FriendliClient.make({ deployment: "container", baseURL, maxRetries: 0 }).pipe(
          Effect.provide(FriendliClient.fetchHttpClient()),
          Effect.orDie,
        )
        return client.completions.stream({
          model: MODEL,
          prompt: body.prompt,
          max_tokens: body.max_tokens ?? 16,
          stream_options: { include_usage: true },
        })
      }),
  })
  const server = await serveNode(handler.fetch)
  return {
    mock,
    mockServer,
    handler,
    server,
    base: `${server.url}/v1/stream`,
    close: async () => {
      await handler.close()
      await server.close()
      await mockServer.close()
    },
  }
}

/** `POST /v1/stream` with `body`. */
export const post = (h: Harness, body: StartBody, signal?: AbortSignal): Promise<Response> =>
  fetch(h.base, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  })

/** The stream's URL from a start response's `Location`. */
export const streamUrl = (h: Harness, response: Response): string => {
  const location = response.headers.get("location")
  if (location === null) throw new Error(`no Location in the answer (status ${response.status})`)
  return new URL(location, h.server.url).href
}

/** `GET` of a stream, from after `lastEventId` when given. */
export const resume = (url: string, lastEventId?: string, signal?: AbortSignal): Promise<Response> =>
  fetch(url, {
    headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId },
    ...(signal === undefined ? {} : { signal }),
  })

/** The events of a whole response body. */
export const eventsOf = async (response: Response): Promise<Array<SseEvent>> =>
  parseSse((await readBody(response)).text).events

/**
 * Reads a response's events until `count` have arrived, then drops the connection (aborts the fetch). The events are
 * whole events only: a part of one that arrived before the drop is not counted.
 */
export const readThenDrop = async (
  response: Response,
  count: number,
  controller: AbortController,
): Promise<Array<SseEvent>> => {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ""
  try {
    while (true) {
      const whole = text.lastIndexOf("\n\n")
      const events = whole < 0 ? [] : parseSse(text.slice(0, whole + 2)).events
      if (events.length >= count) return events.slice(0, count)
      const { done, value } = await reader.read()
      if (done) return events
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    controller.abort()
    await reader.cancel().catch(() => {})
  }
}

/** The mock's record of the upstream request of the stream started with `prompt`. */
export const upstreamOf = (mock: MockFriendli, prompt: string): RequestRecord => {
  const record = mock.requests.find((r) => (r.body as { prompt?: unknown } | undefined)?.prompt === prompt)
  if (record === undefined) throw new Error(`the mock saw no request with prompt ${JSON.stringify(prompt)}`)
  return record
}

/** The data lines the mock sent for a request, `[DONE]` included, as the events' data. */
export const sentData = (record: RequestRecord): Array<string> =>
  record.events.flatMap((e) => (e.type === "chunk" ? [e.data] : []))

export { jsonSent }

let prompts = 0
/** A prompt no other test of this run uses (the mock's tokens follow from it). */
export const uniquePrompt = (label: string): string => `${label} #${++prompts} ${Math.random().toString(36).slice(2)}`
