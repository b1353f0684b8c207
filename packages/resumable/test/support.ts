// The handler under test on a real socket, producing from the mock Friendli endpoint (on a socket too) through the
// Effect client; readers read it with fetch and the harness's SSE parser.
import { FriendliClient } from "@friendli-stream/client"
import { parseSse, readBody, type SseEvent } from "@friendli-stream/test-harness/fixtures"
import { createMockFriendli, jsonSent, type MockFriendli, type RequestRecord } from "@friendli-stream/testing"
import { type RunningServer, serveNode } from "@friendli-stream/testing/node"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { MemoryStore, ResumableHandler, ResumableStore } from "../src/index.ts"

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
  readonly server: RunningServer
  /** `http://127.0.0.1:PORT/v1/stream` */
  readonly base: string
  /** What the memory store holds. */
  size(): Promise<MemoryStore.MemoryStoreSize>
  /** Whether the memory store holds anything of the stream. */
  holds(streamId: string): Promise<boolean>
  /** From now on, every write of a producer (append, renew, finish) hangs, as if its process had frozen or died. */
  killProducers(): void
  /** Closes the handler alone (its producers end with producer_lost); the servers stay up. */
  closeHandler(): Promise<void>
  /** Closes the handler, then the servers. */
  close(): Promise<void>
}

export interface HarnessOptions {
  readonly leaseMs?: number
  readonly retentionMs?: number
  readonly maxDurationMs?: number
  readonly pageSize?: number
  readonly keepAliveMs?: number
}

class Handler extends Context.Service<Handler, ResumableHandler.ResumableHandler>()("test/Handler") {}

/** The app's start: reads a StartBody and streams a completion from the mock through the Effect client. */
const startFrom =
  (mockUrl: string) =>
  (request: Request): Effect.Effect<ResumableHandler.StartResult<unknown>> =>
    Effect.gen(function* () {
      const body =
        request.method === "GET"
          ? (Object.fromEntries(new URL(request.url).searchParams) as unknown as StartBody)
          : ((yield* Effect.promise(() => request.json())) as StartBody)
      if (typeof body.prompt !== "string") return new Response("prompt?", { status: 400 })
      const baseURL = body.faults === undefined ? mockUrl : `${mockUrl}/_fault/${body.faults}`
      const client = yield* FriendliClient.make({ deployment: "container", baseURL, maxRetries: 0 }).pipe(
        Effect.provide(FriendliClient.fetchHttpClient()),
        Effect.orDie,
      )
      return client.completions.stream({
        model: MODEL,
        prompt: body.prompt,
        max_tokens: Number(body.max_tokens ?? 16),
        stream_options: { include_usage: true },
      })
    })

/** A memory store whose producer-side writes hang once `killed()` says so. */
const killableStore = (killed: () => boolean) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const context = yield* Layer.build(MemoryStore.layer())
      const store = Context.get(context, ResumableStore)
      const unlessKilled = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
        Effect.suspend(() => (killed() ? Effect.never : effect))
      return Context.add(context, ResumableStore, {
        ...store,
        append: (lease, events) => unlessKilled(store.append(lease, events)),
        renew: (lease) => unlessKilled(store.renew(lease)),
        finish: (lease, end) => unlessKilled(store.finish(lease, end)),
      })
    }),
  )

/** The mock, the handler (Effect form, on a memory store) producing from it, both served on 127.0.0.1. */
export const startHarness = async (options: HarnessOptions = {}): Promise<Harness> => {
  const mock = createMockFriendli()
  const mockServer = await serveNode(mock)
  let killed = false
  const layer = Layer.effect(Handler, ResumableHandler.make({ ...options, start: startFrom(mockServer.url) })).pipe(
    Layer.provideMerge(killableStore(() => killed)),
  )
  const runtime = ManagedRuntime.make(layer)
  const server = await serveNode((request: Request) =>
    runtime.runPromise(Handler.use((handler) => handler.handle(request))),
  )
  return {
    mock,
    mockServer,
    server,
    base: `${server.url}/v1/stream`,
    size: () => runtime.runPromise(MemoryStore.MemoryStore.use((m) => m.size)),
    holds: (streamId) => runtime.runPromise(MemoryStore.MemoryStore.use((m) => m.holds(streamId))),
    killProducers: () => {
      killed = true
    },
    closeHandler: () => {
      // a frozen producer's last finish would hang too: the closing handler's writes go through
      killed = false
      return runtime.dispose()
    },
    close: async () => {
      killed = false
      await runtime.dispose()
      await server.close()
      await mockServer.close()
    },
  }
}

/** The same app through the Promise form, `toWebHandler` (its own memory store), served on 127.0.0.1. */
export const startWebHarness = async (
  options: HarnessOptions = {},
): Promise<{
  readonly mock: MockFriendli
  readonly base: string
  readonly handler: ResumableHandler.WebHandler
  close(): Promise<void>
}> => {
  const mock = createMockFriendli()
  const mockServer = await serveNode(mock)
  const handler = ResumableHandler.toWebHandler({ ...options, start: startFrom(mockServer.url) })
  const server = await serveNode(handler.fetch)
  return {
    mock,
    base: `${server.url}/v1/stream`,
    handler,
    close: async () => {
      await handler.close()
      await server.close()
      await mockServer.close()
    },
  }
}

/** `POST /v1/stream` with `body`. */
export const post = (h: { readonly base: string }, body: StartBody, signal?: AbortSignal): Promise<Response> =>
  fetch(h.base, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  })

/** The stream's URL from a start response's `Location`. */
export const streamUrl = (h: { readonly base: string }, response: Response): string => {
  const location = response.headers.get("location")
  if (location === null) throw new Error(`no Location in the answer (status ${response.status})`)
  return new URL(location, h.base).href
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
