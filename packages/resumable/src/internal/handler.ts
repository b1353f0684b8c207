/** The routes of ResumableHandler.ts: start, resume, cancel; and its Promise form on a runtime of its own. */
import { SseResponse } from "@friendli-stream/stream"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as EventId from "../EventId.ts"
import * as MemoryStore from "../MemoryStore.ts"
import type { StoreError, StreamNotFound } from "../ResumableError.ts"
import type {
  ResumableHandler,
  ResumableHandlerOptions,
  StartResult,
  Upstream,
  WebHandler,
} from "../ResumableHandler.ts"
import { type CancelResult, type CreateOptions, DEFAULT_CREATE_OPTIONS, ResumableStore } from "../ResumableStore.ts"
import { encodeItem } from "./encoding.ts"
import { json, jsonError, sseResponse } from "./http.ts"
import { produce } from "./producer.ts"

const DEFAULT_BASE_PATH = "/v1/stream"

const isPromiseLike = (u: unknown): u is PromiseLike<unknown> =>
  typeof u === "object" && u !== null && typeof (u as { then?: unknown }).then === "function"

const isResponse = (u: unknown): u is Response => typeof Response !== "undefined" && u instanceof Response

const toStream = <A>(upstream: Upstream<A>): Stream.Stream<A, unknown> =>
  Stream.isStream(upstream)
    ? (upstream as Stream.Stream<A, unknown>)
    : Stream.fromAsyncIterable(upstream as AsyncIterable<A>, (error) => error)

const notFound = (streamId: string) =>
  jsonError(
    404,
    `No stream ${streamId}: it never existed, or it ended longer ago than the retention time.`,
    "not_found",
    "stream_not_found",
  )

const storeFailed = (error: { readonly message: string }) =>
  jsonError(503, `The stream store failed: ${error.message}`, "server_error", "store_unavailable", {
    "retry-after": "1",
  })

/** `Last-Event-ID` (the header, or the `lastEventId` query parameter for curl); `""` when none. */
const lastEventIdOf = (request: Request): string =>
  request.headers.get("last-event-id") || new URL(request.url).searchParams.get("lastEventId") || ""

const invalidEventId = (lastEventId: string) =>
  jsonError(
    400,
    `Last-Event-ID ${JSON.stringify(lastEventId)} is not an event id of this service (expected <streamId>.<seq>, as sent in the events' id: field).`,
    "invalid_request_error",
    "invalid_event_id",
  )

const methodNotAllowed = (allow: string, what: string) =>
  jsonError(405, `Use ${allow.replace(", ", " or ")} ${what}.`, "invalid_request_error", "method_not_allowed", {
    allow,
  })

/** `make` of ResumableHandler.ts. */
export const makeHandler = <A, R = never>(
  options: ResumableHandlerOptions<A, R>,
): Effect.Effect<ResumableHandler, never, ResumableStore | Scope.Scope | R> =>
  Effect.gen(function* () {
    const store = yield* ResumableStore
    const context = yield* Effect.context<R>()
    const producers = yield* FiberSet.make<void, never>()
    const basePath = (options.basePath ?? DEFAULT_BASE_PATH).replace(/\/+$/, "")
    const createOptions: CreateOptions = {
      leaseMs: options.leaseMs ?? DEFAULT_CREATE_OPTIONS.leaseMs,
      retentionMs: options.retentionMs ?? DEFAULT_CREATE_OPTIONS.retentionMs,
      maxDurationMs: options.maxDurationMs ?? DEFAULT_CREATE_OPTIONS.maxDurationMs,
    }
    const encode = options.encode ?? encodeItem
    const readOptions = options.pageSize === undefined ? undefined : { pageSize: options.pageSize }
    const headers = options.headers ?? {}

    const matches = (request: Request): boolean => {
      const path = new URL(request.url).pathname
      return path === basePath || path.startsWith(`${basePath}/`)
    }

    const startStream = (request: Request): Effect.Effect<Response> =>
      Effect.gen(function* () {
        const streamId = options.newStreamId?.(request) ?? EventId.makeStreamId()
        const controller = new AbortController()
        const result = yield* Effect.suspend((): Effect.Effect<StartResult<A>, never, R> => {
          const out = options.start(request, { streamId, signal: controller.signal })
          if (Effect.isEffect(out)) return out
          if (isPromiseLike(out)) return Effect.promise(() => Promise.resolve(out))
          return Effect.succeed(out)
        }).pipe(
          Effect.provideContext(context),
          Effect.catchDefect((defect) =>
            Effect.succeed(
              jsonError(
                500,
                `The stream could not be started: ${defect instanceof Error ? defect.message : String(defect)}`,
                "server_error",
                "start_failed",
              ),
            ),
          ),
        )
        if (isResponse(result)) return result
        const lease = yield* store.create(streamId, createOptions)
        const upstream = toStream(result)
        yield* FiberSet.run(
          producers,
          produce(store, lease, upstream, { encode, ...createOptions }).pipe(
            Effect.ensuring(Effect.sync(() => controller.abort())),
          ),
        )
        return yield* sseResponse(
          streamId,
          store.read(streamId, 0, readOptions),
          { ...headers, location: `${basePath}/${streamId}` },
          request.signal,
          options.keepAliveMs,
        )
      }).pipe(
        Effect.catch((error) =>
          Effect.succeed(
            error._tag === "StoreError"
              ? storeFailed(error)
              : jsonError(500, error.message, "server_error", "stream_exists"),
          ),
        ),
      )

    const resume = (request: Request, streamId: string): Effect.Effect<Response> =>
      Effect.gen(function* () {
        const lastEventId = lastEventIdOf(request)
        const afterSeq = lastEventId === "" ? 0 : yield* EventId.parse(streamId, lastEventId)
        // The first batch is read before answering: nothing after the id (it was the end's) is a 204.
        const scope = yield* Scope.make()
        const pull = yield* Scope.provide(Stream.toPull(store.read(streamId, afterSeq, readOptions)), scope)
        const first = yield* pull.pipe(
          Effect.map(Option.some),
          Pull.catchDone(() => Effect.succeed(Option.none())),
          Effect.onError(() => Scope.close(scope, Exit.void)),
        )
        if (Option.isNone(first)) {
          yield* Scope.close(scope, Exit.void)
          return new Response(null, {
            status: 204,
            headers: { "cache-control": SseResponse.HEADERS["cache-control"]! },
          })
        }
        const rest = Stream.fromPull(Effect.succeed(pull))
        const entries = Stream.concat(Stream.fromArray(first.value), rest).pipe(
          Stream.ensuring(Scope.close(scope, Exit.void)),
        )
        return yield* sseResponse(streamId, entries, headers, request.signal, options.keepAliveMs)
      }).pipe(
        Effect.catch((error) => {
          switch (error._tag) {
            case "InvalidEventId":
              return Effect.succeed(jsonError(400, error.message, "invalid_request_error", "invalid_event_id"))
            case "StreamNotFound":
              return Effect.succeed(notFound(streamId))
            case "StoreError":
              return Effect.succeed(storeFailed(error))
          }
        }),
      )

    const cancelRoute = (streamId: string): Effect.Effect<Response> =>
      store.cancel(streamId).pipe(
        Effect.map((result) =>
          result === "cancelled"
            ? json(200, { id: streamId, status: "cancelled" })
            : jsonError(
                409,
                `Stream ${streamId} had already ended: there is nothing to cancel (GET it to read its end).`,
                "invalid_request_error",
                "stream_already_ended",
              ),
        ),
        Effect.catch((error) =>
          Effect.succeed(error._tag === "StreamNotFound" ? notFound(streamId) : storeFailed(error)),
        ),
      )

    const handle = (request: Request): Effect.Effect<Response> =>
      Effect.suspend(() => {
        const path = new URL(request.url).pathname
        if (path === basePath) {
          if (request.method === "GET") {
            // EventSource reconnects to the URL that started the stream, with the last id it saw
            const lastEventId = lastEventIdOf(request)
            if (lastEventId !== "") {
              const streamId = EventId.streamIdOf(lastEventId)
              if (streamId === undefined) return Effect.succeed(invalidEventId(lastEventId))
              return resume(request, streamId)
            }
          }
          if (request.method === "POST" || request.method === "GET") return startStream(request)
          return Effect.succeed(methodNotAllowed("POST, GET", basePath))
        }
        if (path.startsWith(`${basePath}/`)) {
          const streamId = path.slice(basePath.length + 1)
          if (!EventId.isStreamId(streamId)) return Effect.succeed(notFound(streamId))
          if (request.method === "GET") return resume(request, streamId)
          if (request.method === "DELETE") return cancelRoute(streamId)
          return Effect.succeed(methodNotAllowed("GET, DELETE", `${basePath}/<streamId>`))
        }
        return Effect.succeed(jsonError(404, `No route ${path}: the streams are under ${basePath}.`, "not_found", null))
      })

    const cancel = (streamId: string): Effect.Effect<CancelResult, StreamNotFound | StoreError> =>
      store.cancel(streamId)

    return { basePath, matches, handle, cancel }
  })

class Handler extends Context.Service<Handler, ResumableHandler>()("@friendli-stream/resumable/ResumableHandler") {}

/** `toWebHandler` of ResumableHandler.ts. */
export const toWebHandler = <A>(
  options: ResumableHandlerOptions<A> & { readonly store?: Layer.Layer<ResumableStore, unknown> | undefined },
): WebHandler => {
  const layer = Layer.effect(Handler, makeHandler(options)).pipe(Layer.provide(options.store ?? MemoryStore.layer()))
  const runtime = ManagedRuntime.make(layer)
  const basePath = (options.basePath ?? DEFAULT_BASE_PATH).replace(/\/+$/, "")
  return {
    basePath,
    matches: (request) => {
      const path = new URL(request.url).pathname
      return path === basePath || path.startsWith(`${basePath}/`)
    },
    fetch: async (request) => {
      const exit = await runtime.runPromiseExit(
        Handler.use((h) => h.handle(request)),
        {
          signal: request.signal,
        },
      )
      if (Exit.isSuccess(exit)) return exit.value
      return jsonError(500, `The request failed: ${Cause.pretty(exit.cause)}`, "server_error", null)
    },
    cancel: async (streamId) => {
      const exit = await runtime.runPromiseExit(Handler.use((h) => h.cancel(streamId)))
      if (Exit.isSuccess(exit)) return exit.value
      throw Option.getOrElse(Cause.findErrorOption(exit.cause), () => Cause.squash(exit.cause))
    },
    close: () => runtime.dispose(),
  }
}
