/**
 * The `ResumableStore` of one Durable Object: its stream in the object's SQLite storage (`ctx.storage.sql`), one
 * row for the stream and one per entry, and its live readers fed from memory: every change completes a `Deferred`
 * they wait on (no polling). The object's one alarm watches the producer's lease while the stream runs (storing
 * `producer_lost` when it expires) and deletes everything (`deleteAll`) `retentionMs` after the end.
 *
 * An object holds one stream: a request for any other id is `StreamNotFound`.
 */

import {
  type End,
  type EndReason,
  type Entry,
  endEvent,
  LeaseLost,
  type ResumableStore,
  StoreError,
  StreamExists,
  StreamNotFound,
} from "@friendli-stream/resumable"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

type Service = ResumableStore["Service"]

/** The stream's row. */
interface StreamRow extends Record<string, SqlStorageValue> {
  readonly id: string
  readonly token: string
  readonly lease_ms: number
  readonly retention_ms: number
  readonly max_duration_ms: number
  readonly created_at: number
  readonly lease_expires_at: number
  readonly ended_at: number | null
}

/** One entry's row. */
interface EntryRow extends Record<string, SqlStorageValue> {
  readonly seq: number
  readonly event: string | null
  readonly data: string
  readonly end_reason: string | null
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS resumable_stream (
  id TEXT PRIMARY KEY, token TEXT NOT NULL, lease_ms INTEGER NOT NULL, retention_ms INTEGER NOT NULL,
  max_duration_ms INTEGER NOT NULL, created_at INTEGER NOT NULL, lease_expires_at INTEGER NOT NULL, ended_at INTEGER
);
CREATE TABLE IF NOT EXISTS resumable_entry (
  seq INTEGER PRIMARY KEY, event TEXT, data TEXT NOT NULL, end_reason TEXT
);`

const DEFAULT_PAGE_SIZE = 256

/** The store of one object, and what the object itself calls: on construction, on its alarm, and for tests. */
export interface SqliteStore {
  readonly store: Service
  /**
   * On construction: a stream with no end has no producer any more (the producer lived in the memory of the
   * instance that is gone): stores its `producer_lost` end.
   */
  readonly recover: Effect.Effect<void, StoreError>
  /** The alarm: `producer_lost` for an expired lease, `deleteAll` after the retention time; sets the next alarm. */
  readonly alarm: Effect.Effect<void, StoreError>
  /** The stream this object holds, its last seq and whether it ended; `undefined` when it holds none. */
  readonly info: () => { readonly streamId: string; readonly lastSeq: number; readonly ended: boolean } | undefined
  /** Readers waiting for the next entry, for tests. */
  readonly waitingReaders: () => number
}

const storeError = (cause: unknown, what: string): StoreError =>
  new StoreError({
    reason: "Unavailable",
    message: `The Durable Object's SQLite storage failed to ${what}: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause,
  })

const notFound = (streamId: string): StreamNotFound =>
  new StreamNotFound({
    streamId,
    message: `No stream ${streamId}: it never existed, or it ended longer ago than the retention time.`,
  })

const END_REASONS = new Set<string>(["done", "error", "truncated", "cancelled", "producer_lost", "timeout"])

/** Makes the store of the object whose storage is `storage`. */
export const makeSqliteStore = (
  storage: DurableObjectStorage,
  options: { readonly pageSize?: number | undefined } = {},
): SqliteStore => {
  const sql = storage.sql
  const defaultPageSize = options.pageSize ?? DEFAULT_PAGE_SIZE
  let changed = Deferred.makeUnsafe<void>()
  let waiting = 0
  // Whether the tables exist: known once they do (until `deleteAll`), asked of SQLite until then.
  let tablesExist = false
  const schemaReady = (): boolean =>
    (tablesExist ||=
      sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'resumable_stream'",
        )
        .one().n > 0)

  const wake = (): void => {
    const previous = changed
    changed = Deferred.makeUnsafe<void>()
    Deferred.doneUnsafe(previous, Exit.void)
  }

  /** Runs `f` on the storage, its exceptions as `StoreError`. */
  const attempt = <A>(what: string, f: () => A): Effect.Effect<A, StoreError> =>
    Effect.try({ try: f, catch: (cause) => storeError(cause, what) })

  const row = (): StreamRow | undefined =>
    schemaReady() ? sql.exec<StreamRow>("SELECT * FROM resumable_stream LIMIT 1").toArray()[0] : undefined

  const lastSeq = (): number => sql.exec<{ n: number | null }>("SELECT max(seq) AS n FROM resumable_entry").one().n ?? 0

  const setAlarm = (at: number): Effect.Effect<void, StoreError> =>
    Effect.tryPromise({ try: () => storage.setAlarm(at), catch: (cause) => storeError(cause, "set its alarm") })

  /** Stores `end` as the last entry; the retention time starts. The caller checked that there is none yet. */
  const storeEnd = (stream: StreamRow, end: End): Effect.Effect<void, StoreError> =>
    Effect.flatMap(
      attempt("store the stream's end", () => {
        const now = Date.now()
        sql.exec(
          "INSERT INTO resumable_entry (seq, event, data, end_reason) VALUES (?, ?, ?, ?)",
          lastSeq() + 1,
          end.event ?? null,
          end.data,
          end.reason,
        )
        sql.exec("UPDATE resumable_stream SET ended_at = ?", now)
        wake()
        return now + stream.retention_ms
      }),
      setAlarm,
    )

  const lost = (streamId: string, reason: LeaseLost["reason"]): LeaseLost =>
    new LeaseLost({
      reason,
      streamId,
      message:
        reason === "Cancelled"
          ? `Stream ${streamId} was cancelled: stop producing it (abort the upstream request).`
          : reason === "Ended"
            ? `Stream ${streamId} already ended: nothing more can be written into it.`
            : `The lease on stream ${streamId} expired: its end (producer_lost) is stored.`,
    })

  const endReasonOf = (): EndReason | undefined => {
    const end = sql
      .exec<{ end_reason: string }>("SELECT end_reason FROM resumable_entry WHERE end_reason IS NOT NULL LIMIT 1")
      .toArray()[0]
    return end === undefined ? undefined : (end.end_reason as EndReason)
  }

  /** The stream the lease may write into, or why not (storing `producer_lost` if the lease just expired). */
  const fenced = (lease: { readonly streamId: string; readonly token: string }) =>
    Effect.gen(function* () {
      const stream = yield* attempt("read the stream", row)
      if (stream === undefined || stream.id !== lease.streamId || stream.token !== lease.token) {
        return yield* Effect.fail(lost(lease.streamId, "Ended"))
      }
      if (stream.ended_at === null && Date.now() >= stream.lease_expires_at) {
        yield* storeEnd(stream, endEvent("producer_lost"))
        return yield* Effect.fail(lost(lease.streamId, "Expired"))
      }
      if (stream.ended_at !== null) {
        const reason = yield* attempt("read the stream's end", endReasonOf)
        return yield* Effect.fail(
          lost(lease.streamId, reason === "cancelled" ? "Cancelled" : reason === "producer_lost" ? "Expired" : "Ended"),
        )
      }
      return stream
    })

  const create: Service["create"] = (streamId, createOptions) =>
    Effect.gen(function* () {
      const existing = yield* attempt("read the stream", row)
      if (existing !== undefined) {
        return yield* Effect.fail(
          new StreamExists({
            streamId,
            message: `Stream ${streamId} exists or existed: stream ids are never re-used.`,
          }),
        )
      }
      const token = crypto.randomUUID()
      const now = Date.now()
      yield* attempt("create the stream", () => {
        sql.exec(SCHEMA)
        tablesExist = true
        sql.exec(
          "INSERT INTO resumable_stream (id, token, lease_ms, retention_ms, max_duration_ms, created_at, lease_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          streamId,
          token,
          createOptions.leaseMs,
          createOptions.retentionMs,
          createOptions.maxDurationMs,
          now,
          now + createOptions.leaseMs,
        )
      })
      yield* setAlarm(now + createOptions.leaseMs)
      return { streamId, token, leaseMs: createOptions.leaseMs }
    })

  const append: Service["append"] = (lease, events) =>
    Effect.flatMap(fenced(lease), () =>
      attempt("append to the stream", () => {
        let seq = lastSeq()
        for (const e of events) {
          seq++
          sql.exec("INSERT INTO resumable_entry (seq, event, data) VALUES (?, ?, ?)", seq, e.event ?? null, e.data)
        }
        if (events.length > 0) wake()
        return seq
      }),
    )

  const renew: Service["renew"] = (lease) =>
    Effect.flatMap(fenced(lease), () => {
      const expiresAt = Date.now() + lease.leaseMs
      return Effect.andThen(
        attempt("renew the lease", () => sql.exec("UPDATE resumable_stream SET lease_expires_at = ?", expiresAt)),
        setAlarm(expiresAt),
      )
    })

  const finish: Service["finish"] = (lease, end) => Effect.flatMap(fenced(lease), (stream) => storeEnd(stream, end))

  const cancel: Service["cancel"] = (streamId) =>
    Effect.gen(function* () {
      const stream = yield* attempt("read the stream", row)
      if (stream === undefined || stream.id !== streamId) return yield* Effect.fail(notFound(streamId))
      if (stream.ended_at !== null) return "already_ended" as const
      yield* storeEnd(stream, endEvent("cancelled"))
      return "cancelled" as const
    })

  const read: Service["read"] = (streamId, afterSeq, readOptions) =>
    Stream.unwrap(
      Effect.map(attempt("read the stream", row), (stream) => {
        if (stream === undefined || stream.id !== streamId) {
          return Stream.fail(notFound(streamId)) as Stream.Stream<Entry, StreamNotFound | StoreError>
        }
        const pageSize = Math.max(1, readOptions?.pageSize ?? defaultPageSize)
        return Stream.paginate<number, Entry, StoreError>(Math.max(0, afterSeq), (cursor: number) =>
          Effect.gen(function* () {
            const rows = yield* attempt("read the stream's entries", () =>
              schemaReady()
                ? sql
                    .exec<EntryRow>(
                      "SELECT seq, event, data, end_reason FROM resumable_entry WHERE seq > ? ORDER BY seq LIMIT ?",
                      cursor,
                      pageSize,
                    )
                    .toArray()
                : [],
            )
            if (rows.length > 0) {
              const page = yield* Effect.forEach(rows, toEntry)
              const last = page[page.length - 1] as Entry
              return [page, last.end === undefined ? Option.some(last.seq) : Option.none<number>()] as const
            }
            const current = yield* attempt("read the stream", row)
            // Deleted (retention) while this reader waited, or already ended (a cursor at or past the end).
            if (current === undefined || current.ended_at !== null) return [[], Option.none<number>()] as const
            const wait = changed
            waiting++
            yield* Deferred.await(wait).pipe(Effect.ensuring(Effect.sync(() => waiting--)))
            return [[], Option.some(cursor)] as const
          }),
        )
      }),
    )

  const recover = Effect.gen(function* () {
    const stream = yield* attempt("read the stream", row)
    if (stream !== undefined && stream.ended_at === null) {
      yield* storeEnd(
        stream,
        endEvent(
          "producer_lost",
          "The Durable Object that produced this stream restarted before its end (evicted, crashed or redeployed): the stream was cut.",
        ),
      )
    }
  })

  const alarm = Effect.gen(function* () {
    const stream = yield* attempt("read the stream", row)
    if (stream === undefined) return
    const now = Date.now()
    if (stream.ended_at === null) {
      if (now >= stream.lease_expires_at) return yield* storeEnd(stream, endEvent("producer_lost"))
      return yield* setAlarm(stream.lease_expires_at)
    }
    const deleteAt = stream.ended_at + stream.retention_ms
    if (now < deleteAt) return yield* setAlarm(deleteAt)
    yield* Effect.tryPromise({
      try: () => storage.deleteAll(),
      catch: (cause) => storeError(cause, "delete the stream"),
    })
    tablesExist = false
    wake()
  })

  return {
    store: { create, append, renew, finish, read, cancel },
    info: () => {
      const stream = row()
      return stream === undefined
        ? undefined
        : { streamId: stream.id, lastSeq: lastSeq(), ended: stream.ended_at !== null }
    },
    recover,
    alarm,
    waitingReaders: () => waiting,
  }
}

const toEntry = (r: EntryRow): Effect.Effect<Entry, StoreError> => {
  if (r.end_reason !== null && !END_REASONS.has(r.end_reason)) {
    return Effect.fail(
      new StoreError({ reason: "Corrupt", message: `Entry ${r.seq} has an unknown end reason ${r.end_reason}.` }),
    )
  }
  return Effect.succeed({
    seq: r.seq,
    event: r.event ?? undefined,
    data: r.data,
    ...(r.end_reason === null ? {} : { end: r.end_reason as EndReason }),
  })
}
