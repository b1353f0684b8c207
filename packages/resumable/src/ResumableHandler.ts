/**
 * The resumable-stream routes as a Web handler (`Request -> Response`), in an Effect form ({@link make}) and a
 * Promise form ({@link toWebHandler}):
 *
 * - `POST <base>` (and `GET <base>?…`): the app's `start` reads the request and gives the upstream (or a `Response`,
 *   e.g. a 400); the answer is `200 text/event-stream` with `Location: <base>/<streamId>`, every event with its `id:`.
 *   The upstream runs detached from the request: a reader that goes away does not stop it.
 * - `GET <base>/<streamId>` with `Last-Event-ID` (header, or `?lastEventId=`): the events after that one, then the
 *   live ones, then the end; without it, from the first event. `204` when the id is the end's (nothing follows).
 *   `GET <base>?…` with `Last-Event-ID` resumes the stream the id names (an `EventSource` reconnects to the URL it
 *   opened).
 * - `DELETE <base>/<streamId>`: cancels (`200 {"id","status":"cancelled"}`), `409` when it had already ended.
 * - Errors as JSON `{ "error": { "message", "type", "code" } }`: `404 stream_not_found`, `400 invalid_event_id`,
 *   `409 stream_already_ended`, `405`, `503 store_unavailable`.
 *
 * @since 0.3.0
 */
import type * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import { makeHandler, toWebHandler as toWebHandlerInternal } from "./internal/handler.ts"
import type { StoreError, StreamNotFound } from "./ResumableError.ts"
import type { CancelResult, ResumableStore, StoredEvent } from "./ResumableStore.ts"

/**
 * What a stream is produced from: an Effect `Stream` (e.g. `FriendliClient`'s `completions.stream(…)`), or an
 * `AsyncIterable` (e.g. a `PromiseClient` stream handle). Its failures become the stream's end (`error`, or
 * `truncated` for a `StreamTruncated`).
 *
 * @since 0.3.0
 */
export type Upstream<A> = Stream.Stream<A, unknown> | AsyncIterable<A>

/**
 * What `start` answers: the upstream of a new stream, or a `Response` to send instead (a bad request's 400).
 *
 * @since 0.3.0
 */
export type StartResult<A> = Upstream<A> | Response

/**
 * What `start` is given besides the request.
 *
 * @since 0.3.0
 */
export interface StartContext {
  /** The id the new stream will have. @since 0.3.0 */
  readonly streamId: string
  /**
   * Aborted when the stream's production stops (its end, a cancel, the handler closing). Give it to a Promise client
   * (`{ signal }`), never the request's own signal: the stream goes on when its first reader goes away.
   *
   * @since 0.3.0
   */
  readonly signal: AbortSignal
}

/**
 * How the handler starts, stores and serves streams.
 *
 * @since 0.3.0
 */
export interface ResumableHandlerOptions<A, R = never> {
  /**
   * Reads and checks a request that starts a stream (`POST <base>`, `GET <base>?…`) and gives its upstream, or a
   * `Response` to answer instead. Runs before the stream exists: a `Response` creates nothing.
   *
   * @since 0.3.0
   */
  readonly start: (
    request: Request,
    context: StartContext,
  ) => Effect.Effect<StartResult<A>, never, R> | PromiseLike<StartResult<A>> | StartResult<A>
  /** The routes' base path (default `/v1/stream`). @since 0.3.0 */
  readonly basePath?: string | undefined
  /**
   * The id of a stream a request starts (default: a new random one, `EventId.makeStreamId()`): for a router that
   * chose the id before, e.g. to send each stream to a Durable Object of its own. It must be a stream id
   * (`EventId.isStreamId`) that was never used.
   *
   * @since 0.3.0
   */
  readonly newStreamId?: ((request: Request) => string) | undefined
  /** The producer's lease (default 15 000 ms); a lost producer's readers get `producer_lost` within it. @since 0.3.0 */
  readonly leaseMs?: number | undefined
  /** How long an ended stream stays readable (default 600 000 ms); then 404. @since 0.3.0 */
  readonly retentionMs?: number | undefined
  /** The longest a stream is generated (default 600 000 ms); then a `timeout` end. @since 0.3.0 */
  readonly maxDurationMs?: number | undefined
  /**
   * An item as the event the service sends (default: the client's `toResponse()` encoding: `data: {json}`, a
   * tool status as `event: tool_status`).
   *
   * @since 0.3.0
   */
  readonly encode?: ((item: A) => StoredEvent) | undefined
  /** At most this many stored events per read from the store when replaying (default: the store's). @since 0.3.0 */
  readonly pageSize?: number | undefined
  /** Headers added to every event-stream response (e.g. CORS). @since 0.3.0 */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /**
   * How long an event-stream response may send nothing before a `: keep-alive` comment goes out (default 15 000 ms,
   * `SseResponse.DEFAULT_KEEP_ALIVE_MS`; 0: never). Readers ignore comments.
   *
   * @since 0.3.0
   */
  readonly keepAliveMs?: number | undefined
}

/**
 * The handler in Effect form.
 *
 * @since 0.3.0
 */
export interface ResumableHandler {
  /** The routes' base path, e.g. `/v1/stream`. @since 0.3.0 */
  readonly basePath: string
  /** Whether a request is for these routes (its path is the base path or under it). @since 0.3.0 */
  readonly matches: (request: Request) => boolean
  /** Answers a request for these routes (any other path: 404). Never fails. @since 0.3.0 */
  readonly handle: (request: Request) => Effect.Effect<Response>
  /** Cancels a stream, as `DELETE <base>/<streamId>` does. @since 0.3.0 */
  readonly cancel: (streamId: string) => Effect.Effect<CancelResult, StreamNotFound | StoreError>
}

/**
 * The handler, on the {@link ResumableStore} in context; its producers run in the scope, and closing the scope ends
 * each running stream with a `producer_lost` end.
 *
 * @since 0.3.0
 */
export const make: <A, R = never>(
  options: ResumableHandlerOptions<A, R>,
) => Effect.Effect<ResumableHandler, never, ResumableStore | Scope.Scope | R> = makeHandler

/**
 * The handler in Promise form.
 *
 * @since 0.3.0
 */
export interface WebHandler {
  /** The routes' base path, e.g. `/v1/stream`. @since 0.3.0 */
  readonly basePath: string
  /** Whether a request is for these routes (its path is the base path or under it). @since 0.3.0 */
  readonly matches: (request: Request) => boolean
  /** Answers a request for these routes (any other path: 404); never rejects. @since 0.3.0 */
  readonly fetch: (request: Request) => Promise<Response>
  /** Cancels a stream, as `DELETE` does; rejects with `StreamNotFound` or `StoreError`. @since 0.3.0 */
  readonly cancel: (streamId: string) => Promise<CancelResult>
  /** Ends every running stream (`producer_lost`) and closes the store. @since 0.3.0 */
  readonly close: () => Promise<void>
}

/**
 * The handler as `fetch(request)`, on its own runtime with `store` (default: `MemoryStore.layer()`).
 *
 * @since 0.3.0
 */
export const toWebHandler: <A>(
  options: ResumableHandlerOptions<A> & {
    /** The store (default: a memory store of this handler's own). @since 0.3.0 */
    readonly store?: Layer.Layer<ResumableStore, unknown> | undefined
  },
) => WebHandler = toWebHandlerInternal
