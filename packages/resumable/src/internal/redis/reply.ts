/**
 * Reading the Redis store's replies into entries. Lua replies are arrays of strings and integers on every client;
 * `XREAD` is the one command the store sends outside a script, and clients shape its reply differently (RESP2 an
 * array of `[key, entries]`, node-redis an object keyed by the stream's key, others a `Map`): each shape is accepted.
 */
import type { EndReason, Entry } from "../../ResumableStore.ts"
import { END_REASONS } from "../../ResumableStore.ts"

/** A reply that is not what the store wrote: the caller turns it into `StoreError` reason `Corrupt`. */
export class CorruptReply extends Error {}

const corrupt = (what: string, reply: unknown): never => {
  throw new CorruptReply(`${what}: ${JSON.stringify(reply, (_, v) => (typeof v === "bigint" ? String(v) : v))}`)
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : value instanceof Uint8Array ? new TextDecoder().decode(value) : undefined

/** An integer reply (a number, a bigint or a numeric string), or `undefined`. */
export const integer = (value: unknown): number | undefined => {
  const n = typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : Number(text(value) ?? NaN)
  return Number.isSafeInteger(n) ? n : undefined
}

/** A string reply, or `undefined`. */
export const string = text

const isEndReason = (value: string): value is EndReason => (END_REASONS as ReadonlyArray<string>).includes(value)

/** One stream entry, `[id, [field, value, ...]]` (or `{ id, message }`), as an {@link Entry}. */
const entry = (raw: unknown): Entry => {
  let id: unknown
  let fields: unknown
  if (Array.isArray(raw)) [id, fields] = raw
  else if (typeof raw === "object" && raw !== null && "id" in raw) {
    id = raw.id
    fields = "message" in raw ? raw.message : undefined
  }
  const idText = text(id)
  const seq = idText?.startsWith("0-") ? integer(idText.slice(2)) : undefined
  if (seq === undefined || seq < 1) return corrupt("a stream entry whose id is not 0-<seq>", raw)
  const values = new Map<string, string>()
  if (Array.isArray(fields)) {
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const name = text(fields[i])
      const value = text(fields[i + 1])
      if (name !== undefined && value !== undefined) values.set(name, value)
    }
  } else if (typeof fields === "object" && fields !== null) {
    for (const [name, value] of Object.entries(fields)) {
      const v = text(value)
      if (v !== undefined) values.set(name, v)
    }
  }
  const data = values.get("d")
  if (data === undefined) return corrupt("a stream entry without data", raw)
  const end = values.get("x")
  if (end !== undefined && !isEndReason(end)) return corrupt("a stream entry with an unknown end", raw)
  const event = values.get("e")
  return end === undefined ? { seq, event, data } : { seq, event, data, end }
}

/** The entries of an `XRANGE` reply (an array of entries). */
export const entries = (raw: unknown): Array<Entry> => {
  if (raw === null || raw === undefined) return []
  if (!Array.isArray(raw)) return corrupt("an XRANGE reply that is not an array", raw)
  return raw.map(entry)
}

/** An `XREAD` reply over several keys as `[key, raw entries]` pairs, in any client's shape (`null`: none). */
export const xreadKeys = (raw: unknown): Array<readonly [string, unknown]> => {
  if (raw === null || raw === undefined) return []
  const pairs: Array<readonly [string, unknown]> = []
  const add = (key: unknown, value: unknown) => {
    const name = text(key)
    if (name === undefined) return corrupt("an XREAD reply with a key that is not a string", raw)
    pairs.push([name, value])
  }
  if (raw instanceof Map) for (const [key, value] of raw) add(key, value)
  else if (Array.isArray(raw)) {
    for (const item of raw) {
      if (Array.isArray(item)) add(item[0], item[1])
      else if (typeof item === "object" && item !== null && "name" in item && "messages" in item) {
        add(item.name, item.messages)
      } else return corrupt("an XREAD reply of an unknown shape", raw)
    }
  } else if (typeof raw === "object") for (const [key, value] of Object.entries(raw)) add(key, value)
  else return corrupt("an XREAD reply of an unknown shape", raw)
  return pairs
}

/** The id of the last entry of a raw `XREAD`/`XRANGE` entry list (for a stream whose fields are not entries). */
export const lastId = (raw: unknown): string | undefined => {
  if (!Array.isArray(raw) || raw.length === 0) return undefined
  const last: unknown = raw[raw.length - 1]
  if (Array.isArray(last)) return text(last[0])
  if (typeof last === "object" && last !== null && "id" in last) return text(last.id)
  return undefined
}

/** The reply of the `page` script: `["missing"]`, or `[status, remainingLeaseMs, entries, lastSeq]`. */
export const page = (
  raw: unknown,
):
  | { readonly status: "missing" }
  | { readonly status: "live" | "ended"; remainingMs: number; entries: Array<Entry>; last: number } => {
  if (!Array.isArray(raw)) return corrupt("a page reply that is not an array", raw)
  const status = text(raw[0])
  if (status === "missing") return { status }
  const remainingMs = integer(raw[1])
  if ((status !== "live" && status !== "ended") || remainingMs === undefined) {
    return corrupt("a page reply of an unknown shape", raw)
  }
  const last = integer(raw[3])
  if (last === undefined) return corrupt("a page reply without the last seq", raw)
  return { status, remainingMs, entries: entries(raw[2]), last }
}
