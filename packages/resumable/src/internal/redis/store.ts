/**
 * The Redis store: one meta hash and one Redis stream per resumable stream, written by Lua scripts (one `EVALSHA` per
 * batch, renewal, end or cancel), replayed by a `page` script (`XRANGE` with a `COUNT`, and the lease check) and
 * followed live through the instance's one `XREAD BLOCK` (`follow.ts`); a live reader waits at most until the
 * producer's lease would expire: then the next page notices the expiry and stores `producer_lost`, once, atomically.
 */
import { sentence } from "@friendli-stream/stream/internal"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redis from "effect/persistence/Redis"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { type InvalidEventId, LeaseLost, StoreError, StreamExists, StreamNotFound } from "../../ResumableError.ts"
import { type Entry, endEvent, type Lease, type ResumableStore, type StoredEvent } from "../../ResumableStore.ts"
import { notSent } from "../errors.ts"
import { makeAppendBatcher } from "./batch.ts"
import { makeFollower } from "./follow.ts"
import * as Reply from "./reply.ts"
import * as Scripts from "./scripts.ts"

/** Options of the Redis store. */
export interface RedisStoreOptions {
  /** The prefix of every key the store writes (default `friendli:resumable:`). */
  readonly prefix?: string | undefined
  /** At most this many entries per replayed page and per blocking read (default 256). */
  readonly pageSize?: number | undefined
  /** The longest one `XREAD BLOCK` waits, in ms (default 15000); it never waits past the producer's lease. */
  readonly maxBlockMs?: number | undefined
  /**
   * After a blocking read that brought entries, the instance waits this long before the next one (ms, default 20), so
   * that one read brings what many producers appended meanwhile; a live reader sees an event at most this much later.
   * 0 reads again at once (one `XREAD` per wake-up).
   */
  readonly readLingerMs?: number | undefined
  /**
   * Append the batches of several streams in one `EVALSHA` (default `true`): an append waits `appendLingerMs` for
   * others, and those that come meanwhile (or while one is in flight) go together. Their keys are in different hash
   * slots: set `false` on Redis Cluster (one `EVALSHA` per stream's batch, sent at once).
   */
  readonly batchAcrossStreams?: boolean | undefined
  /**
   * With `batchAcrossStreams`, how long an append waits for the appends of other streams (ms, default 20): a reader
   * sees an event at most this much later. 0 batches only the appends of the same moment.
   */
  readonly appendLingerMs?: number | undefined
}

/** The commands a store issued, by kind, since it was made. */
export interface RedisCommandCounts {
  /** All of them. */
  readonly total: number
  /** `EVALSHA` of `create`. */
  readonly create: number
  /** `EVALSHA` of `append` (one per batch; with `batchAcrossStreams`, one batch holds the appends of several streams). */
  readonly append: number
  /** `EVALSHA` of `renew` (none while the producer appended within the last third of its lease: an append renews). */
  readonly renew: number
  /** `EVALSHA` of `finish`. */
  readonly finish: number
  /** `EVALSHA` of `cancel`. */
  readonly cancel: number
  /** `EVALSHA` of `page` (one per replayed page, and one per blocking read that timed out). */
  readonly page: number
  /** `XREAD BLOCK` on the store's reserved connection (one per wake-up, for all its live readers). */
  readonly xread: number
  /** `EVALSHA` of `wake` (a reader that came while the `XREAD` was blocked, and not covered by it). */
  readonly wake: number
  /** Stream appends (`ResumableStore.append` calls) the `append` commands carried. */
  readonly appendedBatches: number
}

/** The names of a stream's two keys. */
export interface RedisStreamKeys {
  /** The meta hash (lease token and expiry, status, last seq, end). */
  readonly meta: string
  /** The Redis stream of entries (ids `0-<seq>`). */
  readonly log: string
}

/** The default key prefix. */
export const DEFAULT_PREFIX = "friendli:resumable:"

const DEFAULT_PAGE_SIZE = 256
const DEFAULT_MAX_BLOCK_MS = 15_000
const DEFAULT_READ_LINGER_MS = 20
const DEFAULT_APPEND_LINGER_MS = 20
/** How long a stream stays in the instance's blocking read after its readers were last served. */
const KEEP_FOLLOWING_MS = 5_000

/** The keys of one stream: `<prefix>{<streamId>}:meta` and `<prefix>{<streamId>}:log` (one hash slot per stream). */
export const streamKeys = (prefix: string, streamId: string): RedisStreamKeys => ({
  meta: `${prefix}{${streamId}}:meta`,
  log: `${prefix}{${streamId}}:log`,
})

type Service = ResumableStore["Service"]
type Kind = Exclude<keyof RedisCommandCounts, "total" | "appendedBatches">

const lostEnd = endEvent("producer_lost")
const cancelledEnd = endEvent("cancelled")

/** The store, its command counts and its key names; alive as long as the scope (then readers fail with `Closed`). */
export const makeRedisStore = (
  options: RedisStoreOptions = {},
): Effect.Effect<
  {
    readonly store: Service
    readonly commands: Effect.Effect<RedisCommandCounts>
    readonly keys: (streamId: string) => RedisStreamKeys
  },
  never,
  Redis.Redis | Scope.Scope
> =>
  Effect.gen(function* () {
    const redis = yield* Redis.Redis
    const prefix = options.prefix ?? DEFAULT_PREFIX
    const defaultPageSize = Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE)
    const maxBlockMs = Math.max(1, options.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS)
    const keys = (streamId: string) => streamKeys(prefix, streamId)
    const counts: Record<Kind, number> = {
      create: 0,
      append: 0,
      renew: 0,
      finish: 0,
      cancel: 0,
      page: 0,
      xread: 0,
      wake: 0,
    }
    let appendedBatches = 0
    let closed = false
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closed = true
      }),
    )

    const closedError = () => new StoreError({ reason: "Closed", message: "The Redis store was closed." })

    /** A failed command as `StoreError`: `Closed` after the layer's end, else `Unavailable`. */
    const failed = (what: string) => (cause: Redis.RedisError | Reply.CorruptReply) =>
      closed
        ? closedError()
        : cause instanceof Reply.CorruptReply
          ? new StoreError({
              reason: "Corrupt",
              message: `Redis answered ${what} with ${sentence(cause.message)}`,
              cause,
            })
          : new StoreError({
              reason: "Unavailable",
              message: `Redis failed on ${what}: ${sentence(String(cause.cause))} Check that Redis is reachable, and that nothing else writes under the key prefix.`,
              cause,
            })

    /** Runs one command, counted; a reply `parse` cannot read fails with `StoreError` reason `Corrupt`. */
    const command = <A>(
      kind: Kind,
      run: Effect.Effect<unknown, Redis.RedisError>,
      parse: (reply: unknown) => A,
    ): Effect.Effect<A, StoreError> =>
      Effect.suspend(() => {
        if (closed) return Effect.fail(closedError())
        counts[kind]++
        return run.pipe(
          Effect.flatMap((reply) =>
            Effect.try({
              try: () => parse(reply),
              catch: (cause) => (cause instanceof Reply.CorruptReply ? cause : new Reply.CorruptReply(String(cause))),
            }),
          ),
          Effect.mapError(failed(kind)),
        )
      })

    const evalScript = redis.eval

    const follower = yield* makeFollower({
      redis,
      wakeKey: `${prefix}wake:${crypto.randomUUID()}`,
      pageSize: defaultPageSize,
      blockMs: maxBlockMs,
      lingerMs: Math.max(0, options.readLingerMs ?? DEFAULT_READ_LINGER_MS),
      keepMs: KEEP_FOLLOWING_MS,
      closed: closedError,
      failed,
      command,
    })

    const lost = (lease: Lease, reason: LeaseLost["reason"]): LeaseLost =>
      new LeaseLost({
        reason,
        streamId: lease.streamId,
        message:
          reason === "Cancelled"
            ? `Stream ${lease.streamId} was cancelled: stop producing it (abort the upstream request).`
            : reason === "Ended"
              ? `Stream ${lease.streamId} already ended (or is gone): nothing more can be written into it.`
              : `The lease on stream ${lease.streamId} expired (not renewed within ${lease.leaseMs} ms): its end is producer_lost.`,
      })

    /** A fenced write's reply: `ok` for success, a `LeaseLost` reason otherwise. */
    const fencedReply = <A>(
      lease: Lease,
      reply: unknown,
      ok: (reply: unknown) => A | undefined,
    ): Effect.Effect<A, LeaseLost | StoreError> => {
      const value = ok(reply)
      if (value !== undefined) return Effect.succeed(value)
      const reason = Reply.string(reply)
      if (reason === "Cancelled" || reason === "Ended" || reason === "Expired") return Effect.fail(lost(lease, reason))
      return Effect.fail(failed("a fenced write")(new Reply.CorruptReply(JSON.stringify(reply))))
    }

    const create = (
      streamId: string,
      createOptions: Parameters<Service["create"]>[1],
    ): ReturnType<Service["create"]> => {
      const token = crypto.randomUUID()
      const leaseMs = Math.max(1, Math.round(createOptions.leaseMs))
      const { meta, log } = keys(streamId)
      return Effect.flatMap(
        command(
          "create",
          evalScript(Scripts.create)(
            meta,
            log,
            token,
            leaseMs,
            Math.max(1, Math.round(createOptions.retentionMs)),
            Math.max(1, Math.round(createOptions.maxDurationMs)),
          ),
          Reply.integer,
        ),
        (created): Effect.Effect<Lease, StreamExists> =>
          created === 1
            ? Effect.succeed({ streamId, token, leaseMs })
            : Effect.fail(
                new StreamExists({
                  streamId,
                  message: `Stream ${streamId} exists or existed: stream ids are never re-used.`,
                }),
              ),
      )
    }

    /** When each live lease was last extended by an append (ms, `Date.now()` before it was sent), by token. */
    const extended = new Map<string, number>()
    const batches = yield* makeAppendBatcher({
      acrossStreams: options.batchAcrossStreams ?? true,
      lingerMs: Math.max(0, options.appendLingerMs ?? DEFAULT_APPEND_LINGER_MS),
      send: (parts) =>
        command(
          "append",
          evalScript(Scripts.append)(lostEnd.event ?? "", lostEnd.data, parts),
          (reply): ReadonlyArray<unknown> => {
            if (!Array.isArray(reply) || reply.length !== parts.length)
              throw new Reply.CorruptReply(JSON.stringify(reply))
            return reply
          },
        ),
    })

    const append: Service["append"] = (lease, events: ReadonlyArray<StoredEvent>) => {
      const { meta, log } = keys(lease.streamId)
      const args: Array<string> = []
      for (const e of events) args.push(e.event === undefined ? "-" : `+${e.event}`, e.data)
      const sentAt = Date.now()
      return Effect.suspend(() => {
        if (closed) return Effect.fail(closedError())
        appendedBatches++
        return batches.append({ meta, log, token: lease.token, events: args })
      }).pipe(
        Effect.flatMap((reply) =>
          fencedReply(lease, reply, (r) => (typeof r === "string" ? undefined : Reply.integer(r))),
        ),
        Effect.tap(() =>
          Effect.sync(() => {
            if (events.length > 0) extended.set(lease.token, sentAt)
          }),
        ),
        Effect.tapError(() => Effect.sync(() => extended.delete(lease.token))),
      )
    }

    const renew: Service["renew"] = (lease) => {
      const { meta, log } = keys(lease.streamId)
      const last = extended.get(lease.token)
      // an append within the last third of the lease extended it already
      if (last !== undefined && Date.now() - last < lease.leaseMs / 3) return Effect.void
      return Effect.flatMap(
        command(
          "renew",
          evalScript(Scripts.renew)(meta, log, lease.token, lostEnd.event ?? "", lostEnd.data),
          (reply) => reply,
        ),
        (reply) => fencedReply(lease, reply, (r) => (Reply.string(r) === "OK" ? null : undefined)),
      ).pipe(Effect.asVoid)
    }

    const finish: Service["finish"] = (lease, end) => {
      const { meta, log } = keys(lease.streamId)
      extended.delete(lease.token)
      return Effect.flatMap(
        command(
          "finish",
          evalScript(Scripts.finish)(
            meta,
            log,
            lease.token,
            lostEnd.event ?? "",
            lostEnd.data,
            end.reason,
            end.event ?? "",
            end.data,
          ),
          (reply) => reply,
        ),
        (reply) => fencedReply(lease, reply, (r) => (Reply.string(r) === "OK" ? null : undefined)),
      ).pipe(Effect.asVoid)
    }

    const cancel: Service["cancel"] = (streamId) => {
      const { meta, log } = keys(streamId)
      return Effect.flatMap(
        command(
          "cancel",
          evalScript(Scripts.cancel)(meta, log, cancelledEnd.event ?? "", cancelledEnd.data),
          Reply.string,
        ),
        (reply): Effect.Effect<"cancelled" | "already_ended", StreamNotFound | StoreError> =>
          reply === "cancelled" || reply === "already_ended"
            ? Effect.succeed(reply)
            : reply === "missing"
              ? Effect.fail(notFound(streamId))
              : Effect.fail(failed("cancel")(new Reply.CorruptReply(JSON.stringify(reply)))),
      )
    }

    const read: Service["read"] = (streamId, afterSeq, readOptions) =>
      Stream.unwrap(
        Effect.gen(function* () {
          const { meta, log } = keys(streamId)
          const pageSize = Math.max(1, Math.floor(readOptions?.pageSize ?? defaultPageSize))

          interface Cursor {
            readonly seq: number
            /** Read the next page with `XREAD BLOCK` for this long (the stream is live and replayed up to `seq`). */
            readonly blockMs?: number | undefined
          }
          type Page = readonly [ReadonlyArray<Entry>, Option.Option<Cursor>]

          const next = (cursor: Cursor, entries: ReadonlyArray<Entry>, blockMs: number | undefined): Page => {
            const last = entries[entries.length - 1]
            if (last?.end !== undefined) return [entries, Option.none()]
            return [entries, Option.some({ seq: last?.seq ?? cursor.seq, blockMs })]
          }

          const replay = (cursor: Cursor): Effect.Effect<Page, StreamNotFound | InvalidEventId | StoreError> =>
            Effect.flatMap(
              command(
                "page",
                evalScript(Scripts.page)(meta, log, `0-${cursor.seq + 1}`, pageSize, lostEnd.event ?? "", lostEnd.data),
                Reply.page,
              ),
              (page): Effect.Effect<Page, StreamNotFound | InvalidEventId> => {
                if (page.status === "missing") return Effect.fail(notFound(streamId))
                if (cursor.seq > page.last) return Effect.fail(notSent(streamId, cursor.seq, page.last))
                if (page.entries.length >= pageSize) return Effect.succeed(next(cursor, page.entries, undefined))
                if (page.status === "ended") {
                  // the end is in this page, or was before `afterSeq`: either way nothing follows
                  return Effect.succeed([page.entries, Option.none()] as const)
                }
                const blockMs = Math.min(maxBlockMs, Math.max(1, page.remainingMs + 5))
                return Effect.succeed(next(cursor, page.entries, blockMs))
              },
            )

          const follow = (cursor: Cursor & { readonly blockMs: number }): Effect.Effect<Page, StoreError> =>
            Effect.map(
              follower.next(log, cursor.seq, cursor.blockMs),
              // Entries: keep following (the end entry stops the stream). None: the wait timed out, so the next
              // page checks the lease (storing producer_lost if it expired) and says how long to wait again.
              (entries): Page =>
                entries.length > 0
                  ? next(cursor, entries, cursor.blockMs)
                  : [[], Option.some({ seq: cursor.seq, blockMs: undefined })],
            )

          return Stream.paginate(
            { seq: Math.max(0, Math.floor(afterSeq)), blockMs: undefined } as Cursor,
            (cursor: Cursor): Effect.Effect<Page, StreamNotFound | InvalidEventId | StoreError> =>
              cursor.blockMs === undefined ? replay(cursor) : follow({ ...cursor, blockMs: cursor.blockMs }),
          )
        }),
      )

    const commands = Effect.sync(
      (): RedisCommandCounts => ({
        total: Object.values(counts).reduce((a, b) => a + b, 0),
        ...counts,
        appendedBatches,
      }),
    )

    return { store: { create, append, renew, finish, read, cancel }, commands, keys }
  })

const notFound = (streamId: string): StreamNotFound =>
  new StreamNotFound({
    streamId,
    message: `No stream ${streamId}: it never existed, or it ended longer ago than the retention time.`,
  })
