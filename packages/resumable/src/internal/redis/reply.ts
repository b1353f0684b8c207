/**
 * Reading the Redis store's replies into entries. Lua replies are arrays of strings and integers on every client;
 * `XREAD` is the one command the store sends outside a script, and clients shape its reply differently (RESP2 an
 * array of `[key, entries]`, node-redis a map or an object keyed by the stream's key): each shape is accepted.
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

/** The entries of an `XREAD` reply for one key: `null` (timed out), or that key's entries in any client's shape. */
export const xread = (raw: unknown): Array<Entry> => {
  if (raw === null || raw === undefined) return []
  if (raw instanceof Map) return entries([...raw.values()][0])
  if (Array.isArray(raw)) {
    const first = raw[0]
    if (first === undefined) return []
    if (Array.isArray(first)) return entries(first[1])
    if (typeof first === "object" && first !== null && "messages" in first) return entries(first.messages)
    return corrupt("an XREAD reply of an unknown shape", raw)
  }
  if (typeof raw === "object") return entries(Object.values(raw)[0])
  return corrupt("an XREAD reply of an unknown shape", raw)
}

/** The reply of the `page` script: `["missing"]`, or `[status, remainingLeaseMs, entries]`. */
export const page = (
  raw: unknown,
):
  | { readonly status: "missing" }
  | { readonly status: "live" | "ended"; remainingMs: number; entries: Array<Entry> } => {
  if (!Array.isArray(raw)) return corrupt("a page reply that is not an array", raw)
  const status = text(raw[0])
  if (status === "missing") return { status }
  const remainingMs = integer(raw[1])
  if ((status !== "live" && status !== "ended") || remainingMs === undefined) {
    return corrupt("a page reply of an unknown shape", raw)
  }
  return { status, remainingMs, entries: entries(raw[2]) }
}
