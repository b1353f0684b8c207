/**
 * The live side of the Redis store: one `XREAD BLOCK` per store instance, over every stream its readers wait on, on
 * one reserved connection (not one per reader: a thousand live readers cost one connection and one command per
 * wake-up). A reader registers the stream and the last seq it has; the loop reads every registered stream after the
 * lowest seq waited on, and hands each reader the entries after its own seq.
 *
 * A stream stays in the read for `keepMs` after its readers were last served (they are busy writing what they got),
 * and the entries the read brings meanwhile are kept (the last `pageSize`): a reader that comes back after the seq it
 * had is served from them at once, with no command, and is covered by the read in flight, so it needs no wake-up.
 * Only a reader the read in flight does not cover (a new one, or one that fell behind) wakes it, by adding to the
 * instance's wake stream (`<prefix>wake:<instance>`), which the read includes; nothing is missed, since the read asks
 * for the wake stream's entries after the last one it saw. After a read that brought entries, the next one waits
 * `lingerMs` first, so that one read brings what many producers appended meanwhile (readers see entries at most
 * `lingerMs` later; an idle instance reads at once).
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type * as Redis from "effect/persistence/Redis"
import type * as Scope from "effect/Scope"
import type { StoreError } from "../../ResumableError.ts"
import type { Entry } from "../../ResumableStore.ts"
import * as Reply from "./reply.ts"
import * as Scripts from "./scripts.ts"

/** Waits for the entries of one stream after a seq. */
export interface Follower {
  /**
   * The entries of `log` after `after`, as soon as there are some (at most `count`), or `[]` after `timeoutMs`
   * (then the caller checks the lease). Interrupting it unregisters the reader.
   */
  readonly next: (log: string, after: number, timeoutMs: number) => Effect.Effect<ReadonlyArray<Entry>, StoreError>
  /** How many readers wait right now. */
  readonly waiting: () => number
}

interface Waiter {
  readonly after: number
  readonly done: Deferred.Deferred<ReadonlyArray<Entry>, StoreError>
}

/** A stream kept in the read between its readers' waits: the last entries read (seqs `lo`..`hi`, no gap). */
interface Kept {
  entries: Array<Entry>
  /** The last seq read (0 before any). */
  hi: number
  /** The end entry was read: nothing follows. */
  ended: boolean
  /** When a reader of it last waited or was served (ms, `Date.now()`). */
  touched: number
}

/** What the follower needs of its store. */
export interface FollowerOptions {
  readonly redis: Redis.Redis["Service"]
  /** This instance's wake stream. */
  readonly wakeKey: string
  /** At most this many entries per stream per read. */
  readonly pageSize: number
  /** The longest one `XREAD BLOCK` waits, in ms. */
  readonly blockMs: number
  /** After a read that brought entries, wait this long before the next one (ms; 0: read again at once). */
  readonly lingerMs: number
  /** How long a stream stays in the read after its readers were last served (ms). */
  readonly keepMs: number
  /** The failure of the readers still waiting when the store closes. */
  readonly closed: () => StoreError
  /** A failure as `StoreError` (`Closed` once the store is closed). */
  readonly failed: (what: string) => (cause: Redis.RedisError | Reply.CorruptReply) => StoreError
  /** Runs one counted command, its failure (or a reply `parse` cannot read) as `StoreError`. */
  readonly command: <A>(
    kind: "xread" | "wake",
    run: Effect.Effect<unknown, Redis.RedisError>,
    parse: (reply: unknown) => A,
  ) => Effect.Effect<A, StoreError>
}

/** The follower, its loop running in the scope (closing it fails the waiting readers, through `command`). */
export const makeFollower = (options: FollowerOptions): Effect.Effect<Follower, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { redis, wakeKey, pageSize, blockMs, command, lingerMs, keepMs } = options
    const waiting = new Map<string, Set<Waiter>>()
    const kept = new Map<string, Kept>()
    /** The loop sleeps before its next read, which takes in every reader registered meanwhile. */
    let lingering = false
    let readers = 0
    /** The streams (and seqs) of the read in flight; `undefined` while the loop is idle. */
    let inFlight: Map<string, number> | undefined
    let wakeLastId = "0-0"
    let wakePending = false
    let wakeUsed = false
    let idle = Deferred.makeUnsafe<void>()

    const remove = (log: string, waiter: Waiter): void => {
      const set = waiting.get(log)
      if (set === undefined || !set.delete(waiter)) return
      readers--
      if (set.size === 0) waiting.delete(log)
    }

    const failAll = (error: StoreError): void => {
      for (const [log, set] of waiting) {
        for (const waiter of set) {
          remove(log, waiter)
          Deferred.doneUnsafe(waiter.done, Exit.fail(error))
        }
      }
    }

    /** A read's reply as each stream's entries (or why they could not be read); notes the wake stream's last id. */
    const parse = (reply: unknown): Array<readonly [string, ReadonlyArray<Entry> | StoreError]> => {
      const out: Array<readonly [string, ReadonlyArray<Entry> | StoreError]> = []
      for (const [key, raw] of Reply.xreadKeys(reply)) {
        if (key === wakeKey) {
          wakeLastId = Reply.lastId(raw) ?? wakeLastId
          continue
        }
        try {
          out.push([key, Reply.entries(raw)])
        } catch (cause) {
          const error = cause instanceof Reply.CorruptReply ? cause : new Reply.CorruptReply(String(cause))
          out.push([key, options.failed(`XREAD of ${key}`)(error)])
        }
      }
      return out
    }

    /** Hands each waiter of the read's streams the entries after its own seq (or the stream's failure). */
    const deliver = (streams: Array<readonly [string, ReadonlyArray<Entry> | StoreError]>): void => {
      const now = Date.now()
      for (const [key, entries] of streams) {
        if (Array.isArray(entries)) keep(key, entries, now)
        else kept.delete(key)
        const set = waiting.get(key)
        if (set === undefined) continue
        for (const waiter of set) {
          if (!Array.isArray(entries)) {
            remove(key, waiter)
            Deferred.doneUnsafe(waiter.done, Exit.fail(entries as StoreError))
            continue
          }
          const mine: ReadonlyArray<Entry> = entries.filter((entry) => entry.seq > waiter.after)
          if (mine.length === 0) continue
          remove(key, waiter)
          Deferred.doneUnsafe(waiter.done, Exit.succeed(mine))
        }
      }
    }

    /** Adds what a read brought for `log` to its kept entries (a gap starts them afresh). */
    const keep = (log: string, entries: ReadonlyArray<Entry>, now: number): void => {
      if (entries.length === 0) return
      const k = kept.get(log)
      if (k === undefined) {
        // only streams a reader of this instance waits on are kept
        if (!waiting.has(log)) return
        kept.set(log, { entries: [...entries], hi: entries[entries.length - 1]!.seq, ended: false, touched: now })
      } else if (entries[0]!.seq <= k.hi + 1) {
        for (const entry of entries) if (entry.seq > k.hi) k.entries.push(entry)
        k.hi = Math.max(k.hi, entries[entries.length - 1]!.seq)
      } else {
        k.entries = [...entries]
        k.hi = entries[entries.length - 1]!.seq
      }
      const k2 = kept.get(log)!
      if (k2.entries.length > pageSize) k2.entries.splice(0, k2.entries.length - pageSize)
      k2.ended = k2.entries[k2.entries.length - 1]?.end !== undefined
    }

    /** The kept entries after `after`, when they hold the one right after it. */
    const fromKept = (log: string, after: number): ReadonlyArray<Entry> | undefined => {
      const k = kept.get(log)
      if (k === undefined || k.entries.length === 0 || k.hi <= after || k.entries[0]!.seq > after + 1) return undefined
      k.touched = Date.now()
      return k.entries.filter((entry) => entry.seq > after)
    }

    const readOnce = Effect.gen(function* () {
      const streams = new Map<string, number>()
      const now = Date.now()
      for (const [log, k] of kept) {
        if (waiting.has(log)) continue
        if (k.ended || now - k.touched > keepMs) kept.delete(log)
        else streams.set(log, k.hi)
      }
      for (const [log, set] of waiting) {
        let lowest = Number.POSITIVE_INFINITY
        for (const waiter of set) lowest = Math.min(lowest, waiter.after)
        const k = kept.get(log)
        if (k !== undefined) k.touched = now
        streams.set(log, lowest)
      }
      inFlight = streams
      wakePending = false
      const keys = [wakeKey, ...streams.keys()]
      const ids = [wakeLastId, ...[...streams.values()].map((seq) => `0-${seq}`)]
      const read = yield* Effect.scoped(
        Effect.flatMap(Effect.mapError(redis.reserve, options.failed("reserving a connection")), (connection) =>
          command(
            "xread",
            connection.send("XREAD", "COUNT", String(pageSize), "BLOCK", String(blockMs), "STREAMS", ...keys, ...ids),
            parse,
          ),
        ),
      )
      deliver(read)
      return read.length > 0
    }).pipe(
      // Redis failed (or the store closed): every waiting reader fails; the next read starts afresh.
      Effect.catch((error: StoreError) =>
        Effect.sync(() => {
          failAll(error)
          kept.clear()
        }).pipe(Effect.andThen(Effect.sleep(50)), Effect.as(false)),
      ),
    )

    const loop = Effect.gen(function* () {
      while (true) {
        if (waiting.size === 0) {
          inFlight = undefined
          yield* Deferred.await(idle)
          idle = Deferred.makeUnsafe<void>()
          continue
        }
        const brought = yield* readOnce
        if (brought && lingerMs > 0) {
          inFlight = undefined
          lingering = true
          yield* Effect.sleep(lingerMs)
          lingering = false
        }
      }
    })
    yield* Effect.forkScoped(loop)
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => failAll(options.closed())).pipe(
        // the wake stream would expire by itself; a store that closes takes it away at once
        Effect.andThen(Effect.suspend(() => (wakeUsed ? Effect.ignore(redis.send("DEL", wakeKey)) : Effect.void))),
      ),
    )

    /** Registers a waiter; wakes the loop (in process when idle, through Redis when its read does not cover it). */
    const register = (log: string, waiter: Waiter): Effect.Effect<void, StoreError> =>
      Effect.suspend(() => {
        const set = waiting.get(log) ?? new Set<Waiter>()
        waiting.set(log, set)
        set.add(waiter)
        readers++
        if (lingering) return Effect.void
        if (inFlight === undefined) {
          Deferred.doneUnsafe(idle, Exit.void)
          return Effect.void
        }
        const covered = inFlight.get(log)
        if ((covered !== undefined && covered <= waiter.after) || wakePending) return Effect.void
        wakePending = true
        wakeUsed = true
        return command("wake", redis.eval(Scripts.wake)(wakeKey), () => undefined)
      })

    const next: Follower["next"] = (log, after, timeoutMs) =>
      Effect.suspend(() => {
        const ready = fromKept(log, after)
        if (ready !== undefined) return Effect.succeed(ready)
        const waiter: Waiter = { after, done: Deferred.makeUnsafe() }
        return register(log, waiter).pipe(
          Effect.andThen(Effect.timeoutOption(Deferred.await(waiter.done), timeoutMs)),
          Effect.map(Option.getOrElse((): ReadonlyArray<Entry> => [])),
          Effect.ensuring(Effect.sync(() => remove(log, waiter))),
        )
      })

    return { next, waiting: () => readers }
  })
