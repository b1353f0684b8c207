/**
 * The in-memory store: one `Map` of streams, each an array of entries. A stream's one timer (a fiber in the layer's
 * `FiberMap`) watches the producer's lease while it runs, stores `producer_lost` when the lease expires, and removes
 * the stream `retentionMs` after its end. Readers wait on a `Deferred` that every change completes (no polling).
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberMap from "effect/FiberMap"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { InvalidEventId } from "../ResumableError.ts"
import { LeaseLost, StoreError, StreamExists, StreamNotFound } from "../ResumableError.ts"
import {
  type CreateOptions,
  type End,
  type Entry,
  endEvent,
  type Lease,
  type ResumableStore,
  type StoredEvent,
} from "../ResumableStore.ts"
import { notSent } from "./errors.ts"

/** Options of the memory store. */
export interface MemoryStoreOptions {
  /** At most this many entries per replayed page (default 256). */
  readonly pageSize?: number | undefined
}

/** What the memory store holds right now, for tests and metrics. */
export interface MemoryStoreSize {
  /** Streams held (running, or ended and within their retention time). */
  readonly streams: number
  /** Timers running (one per stream at most). */
  readonly timers: number
  /** Readers waiting for the next entry. */
  readonly waitingReaders: number
}

interface State {
  readonly streamId: string
  readonly token: string
  readonly options: CreateOptions
  readonly entries: Array<Entry>
  leaseExpiresAt: number
  end: End | undefined
  /** Completed (and replaced) on every change; readers with nothing to read wait on it. */
  changed: Deferred.Deferred<void>
  waiting: number
}

const DEFAULT_PAGE_SIZE = 256

let tokens = 0
const newToken = (): string =>
  `${Date.now().toString(36)}.${(++tokens).toString(36)}.${Math.random().toString(36).slice(2)}`

type Service = ResumableStore["Service"]

/** The store and its size, alive as long as `scope`: closing it stops every timer and fails waiting readers. */
export const makeMemoryStore = (
  options: MemoryStoreOptions = {},
): Effect.Effect<
  {
    readonly store: Service
    readonly size: Effect.Effect<MemoryStoreSize>
    readonly holds: (streamId: string) => Effect.Effect<boolean>
  },
  never,
  Scope.Scope
> =>
  Effect.gen(function* () {
    const defaultPageSize = options.pageSize ?? DEFAULT_PAGE_SIZE
    const streams = new Map<string, State>()
    const timers = yield* FiberMap.make<string>()
    let closed = false

    const wake = (state: State): void => {
      const previous = state.changed
      state.changed = Deferred.makeUnsafe<void>()
      Deferred.doneUnsafe(previous, Exit.void)
    }

    const closedError = () => new StoreError({ reason: "Closed", message: "The memory store was closed." })

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closed = true
        for (const state of streams.values()) wake(state)
        streams.clear()
      }),
    )

    /** Stores `end` as the last entry (the caller checked that there is none yet). */
    const storeEnd = (state: State, end: End): void => {
      state.end = end
      state.entries.push({ seq: state.entries.length + 1, event: end.event, data: end.data, end: end.reason })
      wake(state)
    }

    /** Waits `retentionMs`, then forgets the stream. */
    const retain = (state: State): Effect.Effect<void> =>
      Effect.sleep(state.options.retentionMs).pipe(
        Effect.andThen(
          Effect.sync(() => {
            if (streams.get(state.streamId) === state) streams.delete(state.streamId)
          }),
        ),
      )

    /** Watches the lease: `producer_lost` once it expires with no end, then the retention time. */
    const watch = (state: State): Effect.Effect<void> =>
      Effect.gen(function* () {
        while (state.end === undefined) {
          const now = yield* Clock.currentTimeMillis
          if (now >= state.leaseExpiresAt) {
            storeEnd(state, endEvent("producer_lost"))
            break
          }
          yield* Effect.sleep(state.leaseExpiresAt - now)
        }
        yield* retain(state)
      })

    /** After an end stored by `finish` or `cancel`: the watcher is replaced by the retention timer. */
    const ended = (state: State): Effect.Effect<void> =>
      FiberMap.run(timers, state.streamId, retain(state)).pipe(Effect.asVoid)

    const lost = (lease: Lease, reason: LeaseLost["reason"]): LeaseLost =>
      new LeaseLost({
        reason,
        streamId: lease.streamId,
        message:
          reason === "Cancelled"
            ? `Stream ${lease.streamId} was cancelled: stop producing it (abort the upstream request).`
            : reason === "Ended"
              ? `Stream ${lease.streamId} already ended: nothing more can be written into it.`
              : `The lease on stream ${lease.streamId} expired (not renewed within ${lease.leaseMs} ms): another reader stored its end.`,
      })

    /** The stream the lease may write into, or why not (storing `producer_lost` if the lease just expired). */
    const fenced = (lease: Lease): Effect.Effect<State, LeaseLost | StoreError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<State, LeaseLost | StoreError> => {
        if (closed) return Effect.fail(closedError())
        const state = streams.get(lease.streamId)
        if (state === undefined || state.token !== lease.token) return Effect.fail(lost(lease, "Ended"))
        if (state.end === undefined && now >= state.leaseExpiresAt) storeEnd(state, endEvent("producer_lost"))
        if (state.end !== undefined) {
          const reason = state.end.reason
          return Effect.fail(
            lost(lease, reason === "cancelled" ? "Cancelled" : reason === "producer_lost" ? "Expired" : "Ended"),
          )
        }
        return Effect.succeed(state)
      })

    const create: Service["create"] = (streamId, createOptions) =>
      Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<Lease, StreamExists | StoreError> => {
        if (closed) return Effect.fail(closedError())
        if (streams.has(streamId)) {
          return Effect.fail(
            new StreamExists({
              streamId,
              message: `Stream ${streamId} exists or existed: stream ids are never re-used.`,
            }),
          )
        }
        const state: State = {
          streamId,
          token: newToken(),
          options: createOptions,
          entries: [],
          leaseExpiresAt: now + createOptions.leaseMs,
          end: undefined,
          changed: Deferred.makeUnsafe<void>(),
          waiting: 0,
        }
        streams.set(streamId, state)
        const lease: Lease = { streamId, token: state.token, leaseMs: createOptions.leaseMs }
        return FiberMap.run(timers, streamId, watch(state)).pipe(Effect.as(lease))
      })

    const append: Service["append"] = (lease, events: ReadonlyArray<StoredEvent>) =>
      Effect.map(fenced(lease), (state) => {
        for (const e of events) state.entries.push({ seq: state.entries.length + 1, event: e.event, data: e.data })
        if (events.length > 0) wake(state)
        return state.entries.length
      })

    const renew: Service["renew"] = (lease) =>
      Effect.flatMap(fenced(lease), (state) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          state.leaseExpiresAt = now + lease.leaseMs
        }),
      )

    const finish: Service["finish"] = (lease, end) =>
      Effect.flatMap(fenced(lease), (state) => {
        storeEnd(state, end)
        return ended(state)
      })

    const cancel: Service["cancel"] = (streamId) =>
      Effect.suspend((): Effect.Effect<"cancelled" | "already_ended", StreamNotFound | StoreError> => {
        if (closed) return Effect.fail(closedError())
        const state = streams.get(streamId)
        if (state === undefined) return Effect.fail(notFound(streamId))
        if (state.end !== undefined) return Effect.succeed("already_ended" as const)
        storeEnd(state, endEvent("cancelled"))
        return ended(state).pipe(Effect.as("cancelled" as const))
      })

    const read: Service["read"] = (streamId, afterSeq, readOptions) =>
      Stream.suspend((): Stream.Stream<Entry, StreamNotFound | InvalidEventId | StoreError> => {
        const state = streams.get(streamId)
        if (closed) return Stream.fail(closedError())
        if (state === undefined) return Stream.fail(notFound(streamId))
        if (afterSeq > state.entries.length) return Stream.fail(notSent(streamId, afterSeq, state.entries.length))
        const pageSize = Math.max(1, readOptions?.pageSize ?? defaultPageSize)
        type Page = readonly [ReadonlyArray<Entry>, Option.Option<number>]
        return Stream.paginate(Math.max(0, afterSeq), (cursor: number) =>
          Effect.suspend((): Effect.Effect<Page, StoreError> => {
            const { entries } = state
            if (cursor < entries.length) {
              const page = entries.slice(cursor, cursor + pageSize)
              const last = page[page.length - 1] as Entry
              return Effect.succeed([page, last.end === undefined ? Option.some(last.seq) : Option.none()] as const)
            }
            if (state.end !== undefined) return Effect.succeed([[], Option.none<number>()] as const)
            if (closed) return Effect.fail(closedError())
            state.waiting++
            return Deferred.await(state.changed).pipe(
              Effect.ensuring(Effect.sync(() => state.waiting--)),
              Effect.as([[], Option.some(cursor)] as const),
            )
          }),
        )
      })

    const size = Effect.map(FiberMap.size(timers), (timerCount) => {
      let waitingReaders = 0
      for (const state of streams.values()) waitingReaders += state.waiting
      return { streams: streams.size, timers: timerCount, waitingReaders }
    })

    const holds = (streamId: string): Effect.Effect<boolean> =>
      Effect.map(FiberMap.has(timers, streamId), (timer) => timer || streams.has(streamId))

    return { store: { create, append, renew, finish, read, cancel }, size, holds }
  })

const notFound = (streamId: string): StreamNotFound =>
  new StreamNotFound({
    streamId,
    message: `No stream ${streamId}: it never existed, or it ended longer ago than the retention time.`,
  })
