/**
 * The Durable Object of one resumable stream: `@friendli-stream/resumable`'s handler (its routes, its producer) on the
 * object's SQLite store, with the upstream request made here, so that generation goes on when the browser goes
 * away. The Worker (`resumableRoutes`) forwards:
 *
 * - the start as `POST <base>` with the stream id it chose in `x-friendli-stream-id` and a {@link ResumableStart};
 * - `GET <base>/<id>` (with `Last-Event-ID`) and `DELETE <base>/<id>` as they came.
 *
 * What the object adds: a `Last-Event-ID` past the stream's last event is a 400 (a reader would otherwise wait for an
 * event that was never sent), `DELETE` aborts the upstream request at once, and `recover`/`alarm` (sqliteStore.ts).
 */

import type { PromiseClient } from "@friendli-stream/client"
import type { DeploymentKind } from "@friendli-stream/core"
import {
  type CreateOptions,
  DEFAULT_CREATE_OPTIONS,
  EventId,
  ResumableHandler,
  ResumableStore,
} from "@friendli-stream/resumable"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import { type CloudflareClientOptions, createClient, type FriendliEnv } from "../../index.ts"
import { jsonError } from "./http.ts"
import { makeSqliteStore, type SqliteStore } from "./sqliteStore.ts"

/** The header in which the Worker names the stream a start creates. */
export const STREAM_ID_HEADER = "x-friendli-stream-id"

/** The bindings the object reads: the client's, and the stream's times (milliseconds, as strings). */
export interface ResumableEnv extends FriendliEnv {
  /** The producer's lease (default 15 s): how soon a stuck producer's readers get `producer_lost`. */
  readonly RESUMABLE_LEASE_MS?: string
  /** How long an ended stream stays readable (default 10 minutes); then `404`. */
  readonly RESUMABLE_RETENTION_MS?: string
  /** The longest a stream is generated (default 10 minutes); then its end is `timeout`. */
  readonly RESUMABLE_MAX_DURATION_MS?: string
}

/** What the Worker sends the object to start a stream: which API, the request (without `stream`), and times. */
export interface ResumableStart {
  /** `/v1/completions` or `/v1/chat/completions`. */
  readonly api: "completions" | "chat"
  /** The request body; `stream: true` is added (and `FRIENDLI_MODEL`, when that binding is set). */
  readonly request: Readonly<Record<string, unknown>>
  /** This stream's lease, retention and maximum duration, over the bindings' (e.g. a longer retention for some). */
  readonly options?: Partial<CreateOptions> | undefined
}

const TIMES = [
  ["leaseMs", "RESUMABLE_LEASE_MS"],
  ["retentionMs", "RESUMABLE_RETENTION_MS"],
  ["maxDurationMs", "RESUMABLE_MAX_DURATION_MS"],
] as const

/** The create options from the bindings and the start's own, or what is wrong with them. */
const createOptions = (env: ResumableEnv, own: Partial<CreateOptions> = {}): CreateOptions | string => {
  const options = { ...DEFAULT_CREATE_OPTIONS }
  for (const [key, name] of TIMES) {
    const text = env[name]
    if (text !== undefined && text !== "") {
      const value = Number(text)
      if (!Number.isInteger(value) || value < 1) {
        return `The binding ${name} must be a whole number of milliseconds from 1 on; it is ${JSON.stringify(text)}.`
      }
      options[key] = value
    }
    const value: unknown = own[key]
    if (value !== undefined) {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
        return `options.${key} must be a whole number of milliseconds from 1 on; it is ${JSON.stringify(value)}.`
      }
      options[key] = value
    }
  }
  return options
}

/** The object's state and routes; the public class (`ResumableStreamObject`) delegates to it. */
export class StreamObject {
  readonly sqlite: SqliteStore
  private readonly runtime: ManagedRuntime.ManagedRuntime<ResumableStore, never>
  /** The producers' scope: as long as the instance (an eviction ends it without a word: `recover` handles that). */
  private readonly scope = Scope.makeUnsafe()
  /** One handler per base path and stream times. */
  private readonly handlers = new Map<string, ResumableHandler.ResumableHandler>()
  /** The start of each start request, for the handler's `start`. */
  private readonly starts = new WeakMap<Request, ResumableStart>()
  /** Aborts the upstream request at once when the stream is cancelled. */
  private readonly cancelled = new AbortController()
  private client: PromiseClient | undefined

  constructor(
    readonly ctx: DurableObjectState,
    readonly env: ResumableEnv,
    private readonly clientOptions: () => CloudflareClientOptions,
  ) {
    this.sqlite = makeSqliteStore(ctx.storage)
    this.runtime = ManagedRuntime.make(Layer.succeed(ResumableStore, this.sqlite.store))
    // An unfinished stream in a new instance has lost its producer (it lived in the old instance's memory).
    void ctx.blockConcurrencyWhile(() => Effect.runPromise(Effect.ignore(this.sqlite.recover)))
  }

  alarm(): Promise<void> {
    return Effect.runPromise(Effect.ignore(this.sqlite.alarm))
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const streamId = request.headers.get(STREAM_ID_HEADER)
    if (request.method === "POST" && streamId !== null) return this.start(request, url.pathname, streamId)
    const base = url.pathname.slice(0, url.pathname.lastIndexOf("/"))
    if (request.method === "GET") {
      const refused = this.pastTheEnd(request, url)
      if (refused !== undefined) return refused
    }
    const handler = await this.handler(base, DEFAULT_CREATE_OPTIONS)
    const response = await this.runtime.runPromise(handler.handle(request))
    if (request.method === "DELETE" && response.status === 200) this.cancelled.abort()
    return response
  }

  /** A `Last-Event-ID` of this stream past its last event: a 400 (nothing of the kind was sent). */
  private pastTheEnd(request: Request, url: URL): Response | undefined {
    const info = this.sqlite.info()
    const lastEventId = request.headers.get("last-event-id") || url.searchParams.get("lastEventId") || ""
    if (info === undefined || EventId.streamIdOf(lastEventId) !== info.streamId) return undefined
    const seq = Number(lastEventId.slice(lastEventId.lastIndexOf(".") + 1))
    if (seq <= info.lastSeq) return undefined
    return jsonError(
      400,
      `Last-Event-ID ${JSON.stringify(lastEventId)} is past the last event of stream ${info.streamId} (${info.lastSeq}): it was not sent by this stream.`,
      "invalid_request_error",
      "invalid_event_id",
    )
  }

  private async start(request: Request, base: string, streamId: string): Promise<Response> {
    if (!EventId.isStreamId(streamId)) {
      return jsonError(400, `${STREAM_ID_HEADER} ${JSON.stringify(streamId)} is not a stream id.`)
    }
    const start = (await request.json()) as ResumableStart
    const options = createOptions(this.env, start.options)
    if (typeof options === "string") return jsonError(500, options, "server_error", "config_error")
    const forward = new Request(request.url, { method: "POST", headers: request.headers })
    this.starts.set(forward, start)
    const handler = await this.handler(base, options)
    return this.runtime.runPromise(handler.handle(forward))
  }

  /** The handler of `base` and `options`, made on first use, its producers in the instance's scope. */
  private async handler(base: string, options: CreateOptions): Promise<ResumableHandler.ResumableHandler> {
    const key = JSON.stringify([base, options])
    const existing = this.handlers.get(key)
    if (existing !== undefined) return existing
    const handler = await this.runtime.runPromise(
      Scope.provide(
        ResumableHandler.make<unknown>({
          ...options,
          basePath: base,
          newStreamId: (request) => request.headers.get(STREAM_ID_HEADER) ?? EventId.makeStreamId(),
          start: (request, context) => this.upstream(request, context.signal),
        }),
        this.scope,
      ),
    )
    this.handlers.set(key, handler)
    return handler
  }

  /** The upstream request of a start: the client's stream handle, aborted by the handler or a cancel. */
  private upstream(request: Request, signal: AbortSignal): ResumableHandler.StartResult<unknown> {
    const start = this.starts.get(request)
    if (start === undefined) return jsonError(400, "Start a stream through the Worker's POST route.")
    try {
      this.client ??= createClient(this.clientOptions())
    } catch (error) {
      return jsonError(500, (error as Error).message, "server_error", "ClientConfigError")
    }
    const model = this.env.FRIENDLI_MODEL
    const body = { ...start.request, ...(model === undefined ? {} : { model }), stream: true } as never
    const options = { signal: AbortSignal.any([signal, this.cancelled.signal]) }
    return start.api === "chat" ? this.client.chat.stream(body, options) : this.client.completions.stream(body, options)
  }
}

/** The client options of the bindings: the token as a `Redacted`, the team, the deployment kind, the base URL. */
export const envClientOptions = (env: FriendliEnv): CloudflareClientOptions => ({
  ...(env.FRIENDLI_TOKEN === undefined ? {} : { token: Redacted.make(env.FRIENDLI_TOKEN) }),
  ...(env.FRIENDLI_TEAM === undefined ? {} : { team: env.FRIENDLI_TEAM }),
  ...(env.FRIENDLI_DEPLOYMENT === undefined ? {} : { deployment: env.FRIENDLI_DEPLOYMENT as DeploymentKind }),
  ...(env.FRIENDLI_BASE_URL === undefined ? {} : { baseURL: env.FRIENDLI_BASE_URL }),
})
