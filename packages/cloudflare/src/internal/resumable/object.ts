/**
 * The Durable Object of one resumable stream: its SQLite store, its producer (the upstream request, made here so
 * that generation goes on when the browser goes away), and its HTTP routes as the Worker forwards them:
 *
 * - `PUT <base>/<id>` (from the Worker's start only): `{ api, request }`; creates the stream, starts the producer,
 *   answers as a `GET` from the first event would, with `Location: <base>/<id>`;
 * - `GET <base>/<id>`: the events after `Last-Event-ID` (header, or `?lastEventId=`), or all of them, then the live
 *   ones, then the end; `204` when the id is the end's own;
 * - `DELETE <base>/<id>`: stores `cancelled` and aborts the upstream request; `409` when the stream already ended.
 */

import type { DeploymentKind } from "@friendli-stream/core"
import {
  type CreateOptions,
  DEFAULT_CREATE_OPTIONS,
  type Entry,
  EventId,
  type ResumableError,
} from "@friendli-stream/resumable"
import type { PromiseClient } from "@friendli-stream/stream"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { type CloudflareClientOptions, createClient, type FriendliEnv } from "../../index.ts"
import { errorResponse, jsonError, sseResponse } from "./http.ts"
import { produce, type UpstreamHandle } from "./producer.ts"
import { makeSqliteStore, type SqliteStore } from "./sqliteStore.ts"

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

/** The error an `event: error` end entry carries, as a JSON error response: for a stream that failed at once. */
const failedAtOnce = (entry: Entry, location: string): Response => {
  let error: { message?: unknown; type?: unknown; code?: unknown } = {}
  try {
    error = (JSON.parse(entry.data) as { error?: typeof error }).error ?? {}
  } catch {}
  const code = typeof error.code === "number" ? error.code : undefined
  const status = code === 400 || code === 404 || code === 422 || code === 429 ? code : 502
  return new Response(
    `${JSON.stringify({ error: { message: String(error.message ?? "The stream failed."), type: String(error.type ?? "error"), code: error.code ?? null } })}\n`,
    { status, headers: { "content-type": "application/json", location } },
  )
}

/** The object's state and routes; the public class (`ResumableStreamObject`) delegates to it. */
export class StreamObject {
  readonly sqlite: SqliteStore
  private producer: Fiber.Fiber<void> | undefined
  private client: PromiseClient | undefined

  constructor(
    readonly ctx: DurableObjectState,
    readonly env: ResumableEnv,
    private readonly clientOptions: () => CloudflareClientOptions,
  ) {
    this.sqlite = makeSqliteStore(ctx.storage)
    // An unfinished stream in a new instance has lost its producer (it lived in the old instance's memory).
    void ctx.blockConcurrencyWhile(() => Effect.runPromise(Effect.ignore(this.sqlite.recover)))
  }

  alarm(): Promise<void> {
    return Effect.runPromise(Effect.ignore(this.sqlite.alarm))
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const streamId = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf("/") + 1))
    if (!EventId.isStreamId(streamId)) return jsonError(404, `No stream ${streamId}: not a stream id.`, "not_found")
    const location = url.pathname
    if (request.method === "PUT") return this.start(streamId, request, location)
    if (request.method === "GET") return this.get(streamId, request, url)
    if (request.method === "DELETE") return this.cancel(streamId)
    return jsonError(405, `Use GET or DELETE ${location}.`, undefined, { allow: "GET, DELETE" })
  }

  private async start(streamId: string, request: Request, location: string): Promise<Response> {
    const { api, request: body, options: own } = (await request.json()) as ResumableStart
    const options = createOptions(this.env, own)
    if (typeof options === "string") return jsonError(500, options, "config_error")
    let handle: UpstreamHandle & { abort(reason?: unknown): void }
    try {
      this.client ??= createClient(this.clientOptions())
      const model = this.env.FRIENDLI_MODEL
      const upstream = { ...body, ...(model === undefined ? {} : { model }), stream: true } as never
      handle = api === "chat" ? this.client.chat.stream(upstream) : this.client.completions.stream(upstream)
    } catch (error) {
      return jsonError(500, (error as Error).message, "ClientConfigError")
    }
    const store = this.sqlite.store
    const lease = await Effect.runPromise(Effect.result(store.create(streamId, options)))
    if (lease._tag === "Failure") return errorResponse(lease.failure)
    const producer = Effect.runFork(produce(store, lease.success, handle, options.maxDurationMs))
    this.producer = producer
    this.ctx.waitUntil(Effect.runPromise(Fiber.await(producer)).then(() => undefined))
    // Answer as a GET from the first event; a stream that failed before its first event is a JSON error.
    const first = await Effect.runPromise(Effect.result(Stream.runHead(store.read(streamId, 0, { pageSize: 1 }))))
    if (first._tag === "Failure") return errorResponse(first.failure)
    const entry = Option.getOrUndefined(first.success)
    if (entry === undefined)
      return jsonError(503, `Stream ${streamId} disappeared before its first event.`, "store_error")
    if (entry.seq === 1 && entry.end === "error") return failedAtOnce(entry, location)
    const rest = entry.end === undefined ? store.read(streamId, entry.seq) : Stream.empty
    return sseResponse(streamId, Stream.concat(Stream.succeed(entry), rest), { location })
  }

  private get(streamId: string, request: Request, url: URL): Response {
    const info = this.sqlite.info()
    if (info === undefined || info.streamId !== streamId) {
      return jsonError(
        404,
        `No stream ${streamId}: it never existed, or it ended longer ago than the retention time.`,
        "not_found",
      )
    }
    const lastEventId = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId")
    let after = 0
    if (lastEventId !== null && lastEventId !== "") {
      const parsed = Effect.runSync(Effect.result(EventId.parse(streamId, lastEventId)))
      if (parsed._tag === "Failure") return errorResponse(parsed.failure)
      after = parsed.success
      if (after > info.lastSeq) {
        return jsonError(
          400,
          `Last-Event-ID ${JSON.stringify(lastEventId)} is past the last event of stream ${streamId} (${info.lastSeq}): it was not sent by this stream.`,
        )
      }
      if (info.ended && after === info.lastSeq) return new Response(null, { status: 204 })
    }
    return sseResponse(streamId, this.sqlite.store.read(streamId, after) as Stream.Stream<Entry, ResumableError>, {
      location: url.pathname,
    })
  }

  private async cancel(streamId: string): Promise<Response> {
    const result = await Effect.runPromise(Effect.result(this.sqlite.store.cancel(streamId)))
    if (result._tag === "Failure") return errorResponse(result.failure)
    if (result.success === "already_ended") {
      return jsonError(
        409,
        `Stream ${streamId} already ended: there is nothing to cancel (GET it for its events and its end).`,
        "conflict",
      )
    }
    // Interrupting the producer cancels the upstream body, which aborts the upstream request.
    const producer = this.producer
    this.producer = undefined
    if (producer !== undefined) await Effect.runPromise(Fiber.interrupt(producer))
    return new Response(`${JSON.stringify({ id: streamId, status: "cancelled" })}\n`, {
      headers: { "content-type": "application/json" },
    })
  }
}

/** The client options of the bindings: the token as a `Redacted`, the team, the deployment kind, the base URL. */
export const envClientOptions = (env: FriendliEnv): CloudflareClientOptions => ({
  ...(env.FRIENDLI_TOKEN === undefined ? {} : { token: Redacted.make(env.FRIENDLI_TOKEN) }),
  ...(env.FRIENDLI_TEAM === undefined ? {} : { team: env.FRIENDLI_TEAM }),
  ...(env.FRIENDLI_DEPLOYMENT === undefined ? {} : { deployment: env.FRIENDLI_DEPLOYMENT as DeploymentKind }),
  ...(env.FRIENDLI_BASE_URL === undefined ? {} : { baseURL: env.FRIENDLI_BASE_URL }),
})
