// The store contract of @friendli-stream/resumable (the suite every ResumableStore runs) against the Durable Object's
// SQLite store, in workerd: each stream in a Durable Object of its own (StoreObject, SQLite-backed), driven over RPC.
import { env as cloudflareEnv } from "cloudflare:workers"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
// The classes of the sources the contract suite imports (its instanceof checks must see the same ones).
import {
  type Entry,
  LeaseLost,
  type ResumableError,
  ResumableStore,
  StoreError,
  StreamExists,
  StreamNotFound,
} from "../../../resumable/src/index.ts"
import { storeContract } from "../../../resumable/test/store-contract.ts"
import type { Outcome, StoreObject, WireError } from "./storeObject.ts"

const env = cloudflareEnv as unknown as { STORES: DurableObjectNamespace<StoreObject> }

/** A stream's object, as a new stub each time (a stub belongs to the context that made it). */
const objectOf = (streamId: string) => env.STORES.get(env.STORES.idFromName(streamId))

const fromWire = (error: WireError): ResumableError => {
  const streamId = error.streamId ?? ""
  switch (error._tag) {
    case "StreamNotFound":
      return new StreamNotFound({ streamId, message: error.message })
    case "StreamExists":
      return new StreamExists({ streamId, message: error.message })
    case "LeaseLost":
      return new LeaseLost({ streamId, reason: error.reason as LeaseLost["reason"], message: error.message })
    default:
      return new StoreError({ reason: (error.reason as StoreError["reason"]) ?? "Unavailable", message: error.message })
  }
}

const call = <A, E>(
  streamId: string,
  op: "create" | "append" | "renew" | "finish" | "cancel",
  args: ReadonlyArray<unknown>,
) =>
  Effect.flatMap(
    Effect.promise(() => objectOf(streamId).call(op, args) as Promise<Outcome>),
    (outcome): Effect.Effect<A, E> =>
      outcome.ok ? Effect.succeed(outcome.value as A) : Effect.fail(fromWire(outcome.error) as E),
  )

const store: ResumableStore["Service"] = {
  create: (streamId, options) => call(streamId, "create", [streamId, options]),
  append: (lease, events) => call(lease.streamId, "append", [lease, events]),
  renew: (lease) => call(lease.streamId, "renew", [lease]),
  finish: (lease, end) => call(lease.streamId, "finish", [lease, end]),
  cancel: (streamId) => call(streamId, "cancel", [streamId]),
  read: (streamId, afterSeq, options) =>
    Stream.unwrap(
      Effect.map(
        Effect.promise(
          () => objectOf(streamId).read(streamId, afterSeq, options?.pageSize) as Promise<ReadableStream<Uint8Array>>,
        ),
        (body) =>
          Stream.fromReadableStream({
            evaluate: () => body,
            onError: (cause) =>
              new StoreError({ reason: "Unavailable", message: `RPC read failed: ${String(cause)}`, cause }),
          }),
      ),
    ).pipe(
      Stream.decodeText,
      Stream.splitLines,
      Stream.mapEffect((line) => {
        const parsed = JSON.parse(line) as { entry?: Entry; error?: WireError }
        return parsed.error === undefined
          ? // JSON leaves out a key whose value is undefined: an unnamed event's `event` is put back.
            Effect.succeed({ ...(parsed.entry as Entry), event: parsed.entry?.event })
          : Effect.fail(fromWire(parsed.error) as StreamNotFound | StoreError)
      }),
    ),
}

storeContract({
  name: "Durable Object (SQLite)",
  layer: Layer.succeed(ResumableStore, store),
  holds: (streamId) => Effect.promise(() => objectOf(streamId).holds() as Promise<boolean>),
})
