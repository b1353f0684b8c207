/**
 * The producer of one stream: pulls the upstream, appends whatever arrived since the last append as one batch,
 * renews the lease every `leaseMs / 3`, and stores the end: `done`, the upstream's failure (ends.ts), `timeout` at
 * `maxDurationMs`, or `producer_lost` when it is interrupted (the handler closing). A `LeaseLost` (cancelled,
 * expired) interrupts the upstream, which closes the client's scope and so aborts its request.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { LeaseLost, StoreError } from "../ResumableError.ts"
import { type End, endEvent, type Lease, type ResumableStore, type StoredEvent } from "../ResumableStore.ts"
import { failureEnd } from "./ends.ts"

/** How one producer runs. */
export interface ProducerSettings<A> {
  readonly encode: (item: A) => StoredEvent
  readonly leaseMs: number
  readonly maxDurationMs: number
}

type Outcome =
  | { readonly _tag: "End"; readonly end: End }
  | { readonly _tag: "Lost"; readonly error: LeaseLost }
  | { readonly _tag: "StoreFailed"; readonly error: StoreError }

const storeOutcome = (error: LeaseLost | StoreError): Outcome =>
  error._tag === "LeaseLost" ? { _tag: "Lost", error } : { _tag: "StoreFailed", error }

/** Produces stream `lease.streamId` from `upstream` to its end; never fails. */
export const produce = <A, E, R>(
  store: ResumableStore["Service"],
  lease: Lease,
  upstream: Stream.Stream<A, E, R>,
  settings: ProducerSettings<A>,
): Effect.Effect<void, never, R> => {
  const pump: Effect.Effect<Outcome, never, R> = upstream.pipe(
    Stream.bufferArray({ capacity: "unbounded" }),
    Stream.runForEachArray((items) =>
      Effect.suspend((): Effect.Effect<void, LeaseLost | StoreError> => {
        const events: Array<StoredEvent> = []
        for (const item of items) {
          try {
            events.push(settings.encode(item))
          } catch (error) {
            // the items encoded before the one that could not be are kept
            const kept: Effect.Effect<unknown, LeaseLost | StoreError> =
              events.length === 0 ? Effect.void : store.append(lease, events)
            return Effect.andThen(kept, Effect.die(error))
          }
        }
        return Effect.asVoid(store.append(lease, events))
      }),
    ),
    Effect.map((): Outcome => ({ _tag: "End", end: endEvent("done") })),
    Effect.catch(
      (error: E | LeaseLost | StoreError): Effect.Effect<Outcome> =>
        Effect.succeed(isStoreFailure(error) ? storeOutcome(error) : { _tag: "End", end: failureEnd(error) }),
    ),
    // a defect (the upstream or `encode` threw) ends the stream too: the race must not wait for the timeout
    Effect.catchCause(
      (cause): Effect.Effect<Outcome> =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause)
          : Effect.succeed({ _tag: "End", end: failureEnd(Cause.squash(cause)) }),
    ),
  )
  const renewing: Effect.Effect<Outcome> = Effect.sleep(Math.max(1, Math.floor(settings.leaseMs / 3))).pipe(
    Effect.andThen(store.renew(lease)),
    Effect.forever,
    Effect.catch((error) => Effect.succeed(storeOutcome(error))),
    Effect.catchCause(
      (cause): Effect.Effect<Outcome> =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause)
          : Effect.succeed({
              _tag: "StoreFailed",
              error: new StoreError({ reason: "Unavailable", message: String(Cause.squash(cause)), cause }),
            }),
    ),
  )
  const timeout: Effect.Effect<Outcome> = Effect.sleep(settings.maxDurationMs).pipe(
    Effect.as<Outcome>({
      _tag: "End",
      end: endEvent(
        "timeout",
        `The stream reached its maximum duration (${settings.maxDurationMs} ms) and was stopped.`,
      ),
    }),
  )
  const finish = (end: End) => Effect.ignore(store.finish(lease, end))
  return Effect.raceAll([pump, renewing, timeout]).pipe(
    Effect.flatMap((outcome) =>
      outcome._tag === "End"
        ? finish(outcome.end)
        : outcome._tag === "StoreFailed"
          ? finish(endEvent("error", `The stream's store failed: ${outcome.error.message}`))
          : Effect.void,
    ),
    Effect.onInterrupt(() =>
      finish(endEvent("producer_lost", "The service stopped producing this stream before its end (it shut down).")),
    ),
  )
}

const isStoreFailure = (error: unknown): error is LeaseLost | StoreError =>
  error instanceof LeaseLost || error instanceof StoreError
