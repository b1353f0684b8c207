/**
 * The Redis store's appends, batched across streams: an append waits `lingerMs` for others, and the appends that
 * become ready meanwhile (or while a command is in flight) go out together (one `EVALSHA` of the `append` script for
 * all of them), so that a thousand producers whose tokens arrive one at a time cost far fewer commands than tokens;
 * an append waits at most `lingerMs` plus the command before it. Each stream has at most one append waiting (its producer waits for it), so a batch never holds a stream
 * twice, and the order of each stream's appends is kept.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Scope from "effect/Scope"
import type { StoreError } from "../../ResumableError.ts"
import type { AppendBatch } from "./scripts.ts"

/** Appends one stream's batch; its reply item (the last seq, or why the write was fenced off). */
export interface AppendBatcher {
  readonly append: (batch: AppendBatch) => Effect.Effect<unknown, StoreError>
}

interface Pending {
  readonly batch: AppendBatch
  readonly done: Deferred.Deferred<unknown, StoreError>
}

/** What the batcher needs: whether to batch across streams, and the command that appends batches (one item each). */
export interface AppendBatcherOptions {
  readonly acrossStreams: boolean
  /** How long the first append of a batch waits for others (ms; 0: only those of the same moment). */
  readonly lingerMs: number
  readonly send: (batches: ReadonlyArray<AppendBatch>) => Effect.Effect<ReadonlyArray<unknown>, StoreError>
}

/** Most streams' batches in one command (bounds its size and the script's run). */
const MAX_STREAMS_PER_COMMAND = 128

/** The batcher; its loop runs in the scope. */
export const makeAppendBatcher = (options: AppendBatcherOptions): Effect.Effect<AppendBatcher, never, Scope.Scope> =>
  Effect.gen(function* () {
    if (!options.acrossStreams) {
      return {
        append: (batch) => Effect.map(options.send([batch]), (replies) => replies[0]),
      }
    }
    const lingerMs = options.lingerMs
    let queue: Array<Pending> = []
    let ready = Deferred.makeUnsafe<void>()

    const sendAll = (pending: ReadonlyArray<Pending>): Effect.Effect<void> =>
      options.send(pending.map((p) => p.batch)).pipe(
        Effect.matchEffect({
          onFailure: (error) =>
            Effect.sync(() => {
              for (const p of pending) Deferred.doneUnsafe(p.done, Exit.fail(error))
            }),
          onSuccess: (replies) =>
            Effect.sync(() => {
              for (let i = 0; i < pending.length; i++) Deferred.doneUnsafe(pending[i]!.done, Exit.succeed(replies[i]))
            }),
        }),
      )

    const loop = Effect.gen(function* () {
      while (true) {
        if (queue.length === 0) {
          yield* Deferred.await(ready)
          ready = Deferred.makeUnsafe<void>()
          // the appends of the next lingerMs (or of the same moment) join this one
          yield* lingerMs > 0 ? Effect.sleep(lingerMs) : Effect.yieldNow
        }
        const pending = queue.splice(0, MAX_STREAMS_PER_COMMAND)
        yield* sendAll(pending)
      }
    })
    yield* Effect.forkScoped(loop)
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        const left = queue
        queue = []
        for (const p of left) Deferred.doneUnsafe(p.done, Exit.interrupt())
      }),
    )

    return {
      append: (batch) =>
        Effect.suspend(() => {
          const done = Deferred.makeUnsafe<unknown, StoreError>()
          queue.push({ batch, done })
          Deferred.doneUnsafe(ready, Exit.void)
          return Deferred.await(done)
        }),
    }
  })
