// A Durable Object that hosts the SQLite store of resumable streams (the one the stream's Durable Object uses) and
// offers its operations over RPC, so that the store contract suite of @friendli-stream/resumable can drive it from
// the test: each stream id in an object of its own (`idFromName`), as in production.
import { DurableObject } from "cloudflare:workers"
import type { ResumableStore } from "@friendli-stream/resumable"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { makeSqliteStore } from "../../src/internal/resumable/sqliteStore.ts"

/** A typed failure of the store as RPC carries it. */
export interface WireError {
  readonly _tag: string
  readonly message: string
  readonly reason?: string | undefined
  readonly streamId?: string | undefined
}

/** What an operation gave: its value, or its typed failure. */
export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: WireError }

type Service = ResumableStore["Service"]
type Op = "create" | "append" | "renew" | "finish" | "cancel"

const toWire = (error: unknown): WireError => {
  const e = error as { _tag?: unknown; message?: unknown; reason?: unknown; streamId?: unknown }
  return {
    _tag: String(e._tag ?? "Defect"),
    message: String(e.message ?? error),
    ...(typeof e.reason === "string" ? { reason: e.reason } : {}),
    ...(typeof e.streamId === "string" ? { streamId: e.streamId } : {}),
  }
}

export class StoreObject extends DurableObject {
  readonly #sqlite = makeSqliteStore(this.ctx.storage)

  override alarm(): Promise<void> {
    return Effect.runPromise(Effect.ignore(this.#sqlite.alarm))
  }

  async call(op: Op, args: ReadonlyArray<unknown>): Promise<Outcome> {
    const f = this.#sqlite.store[op] as (...a: ReadonlyArray<unknown>) => ReturnType<Service[Op]>
    const exit = await Effect.runPromiseExit(f(...args) as Effect.Effect<unknown, unknown>)
    if (Exit.isSuccess(exit)) return { ok: true, value: exit.value }
    const error = Cause.findErrorOption(exit.cause)
    return { ok: false, error: Option.isSome(error) ? toWire(error.value) : toWire(Cause.squash(exit.cause)) }
  }

  /** The entries of `read`, one JSON line each (`{ "entry" }` or, last, `{ "error" }`). */
  read(streamId: string, afterSeq: number, pageSize: number | undefined): ReadableStream<Uint8Array> {
    return this.#sqlite.store.read(streamId, afterSeq, pageSize === undefined ? undefined : { pageSize }).pipe(
      Stream.map((entry) => `${JSON.stringify({ entry })}\n`),
      Stream.catch((error) => Stream.succeed(`${JSON.stringify({ error: toWire(error) })}\n`)),
      Stream.encodeText,
      Stream.toReadableStream(),
    )
  }

  /** Whether anything of a stream is held: its row, its entries or its tables. */
  holds(): boolean {
    return (
      this.ctx.storage.sql
        .exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name LIKE 'resumable_%'")
        .one().n > 0
    )
  }
}
