/**
 * The Redis store's Lua scripts: every write (create, append, renew, finish, cancel) and every replayed page is one
 * `EVALSHA`, so that fencing (token, status, lease expiry on the server's own clock) and the end entry are atomic.
 *
 * Keys: `KEYS[1]` the stream's meta hash, `KEYS[2]` its Redis stream (the log). Meta fields: `token` (the lease's
 * fencing token), `lease` (its length, ms), `until` (its expiry, server ms), `status` (`live` | `ended`), `end` (the
 * end reason), `last` (the last seq written), `retention` (ms), `deadline` (server ms: the keys' expiry while live).
 * Log entries have the id `0-<seq>` and the fields `d` (data), `e` (event name, when there is one), `x` (the end
 * reason, on the end entry only).
 */
import * as Redis from "effect/persistence/Redis"

/** Shared Lua: the server's time in ms, the end entry, and the fence every producer write passes. */
const PRELUDE = `
local meta, log = KEYS[1], KEYS[2]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function store_end(reason, event, data)
  local seq = redis.call('HINCRBY', meta, 'last', 1)
  if event == '' then
    redis.call('XADD', log, '0-' .. seq, 'd', data, 'x', reason)
  else
    redis.call('XADD', log, '0-' .. seq, 'd', data, 'e', event, 'x', reason)
  end
  redis.call('HSET', meta, 'status', 'ended', 'end', reason)
  local retention = tonumber(redis.call('HGET', meta, 'retention'))
  redis.call('PEXPIRE', meta, retention)
  redis.call('PEXPIRE', log, retention)
  return seq
end
local function lost_reason(reason)
  if reason == 'cancelled' then return 'Cancelled' end
  if reason == 'producer_lost' then return 'Expired' end
  return 'Ended'
end
-- nil when the token may write; else why not (storing producer_lost if its lease just expired)
local function fence(token, lost_event, lost_data)
  local m = redis.call('HMGET', meta, 'token', 'status', 'until', 'end')
  if not m[1] or m[1] ~= token then return 'Ended' end
  if m[2] == 'ended' then return lost_reason(m[4]) end
  if now_ms() >= tonumber(m[3]) then
    store_end('producer_lost', lost_event, lost_data)
    return 'Expired'
  end
  return nil
end
`

/**
 * `create(meta, log, token, leaseMs, retentionMs, maxDurationMs)`: `1` when created, `0` when the id exists or
 * existed within its retention time (NX: the meta hash is the tombstone until it expires).
 */
export const create = Redis.script(
  (meta: string, log: string, token: string, leaseMs: number, retentionMs: number, maxDurationMs: number) => [
    meta,
    log,
    token,
    leaseMs,
    retentionMs,
    maxDurationMs,
  ],
  {
    numberOfKeys: 2,
    lua: `${PRELUDE}
if redis.call('EXISTS', meta) == 1 then return 0 end
local now = now_ms()
local ttl = tonumber(ARGV[4]) + tonumber(ARGV[3])
redis.call('DEL', log)
redis.call('HSET', meta, 'token', ARGV[1], 'lease', ARGV[2], 'until', now + tonumber(ARGV[2]), 'status', 'live',
  'last', 0, 'retention', ARGV[3], 'deadline', now + ttl)
redis.call('PEXPIRE', meta, ttl)
return 1
`,
  },
).withReturnType<unknown>()

/**
 * `append(lostEvent, lostData, ...perStream)` over `KEYS` = each stream's meta and log in turn: one batch for each of
 * several streams (one command for all; they share a Redis, not a Cluster slot, unless there is one stream). Per
 * stream the arguments are its token, its event count `n`, then `n` events of two arguments each (`+name` or `-`,
 * data). The reply has one item per stream: the last seq written (an integer), or the `LeaseLost` reason (a string).
 * A write extends the stream's lease as a renewal does (the producer's renewals are skipped while it appends).
 */
export const append = Redis.script(
  (lostEvent: string, lostData: string, streams: ReadonlyArray<AppendBatch>) => {
    const out: Array<string> = []
    for (const s of streams) out.push(s.meta, s.log)
    out.push(lostEvent, lostData)
    for (const s of streams) out.push(s.token, String(s.events.length / 2), ...s.events)
    return out
  },
  {
    numberOfKeys: (_lostEvent: string, _lostData: string, streams: ReadonlyArray<AppendBatch>) => streams.length * 2,
    lua: `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lost_event, lost_data = ARGV[1], ARGV[2]
local out = {}
local a = 3
for k = 1, #KEYS, 2 do
  local meta, log = KEYS[k], KEYS[k + 1]
  local token, n = ARGV[a], tonumber(ARGV[a + 1])
  a = a + 2
  local m = redis.call('HMGET', meta, 'token', 'status', 'until', 'end', 'last', 'lease', 'deadline', 'retention')
  local result
  if not m[1] or m[1] ~= token then
    result = 'Ended'
  elseif m[2] == 'ended' then
    if m[4] == 'cancelled' then result = 'Cancelled' elseif m[4] == 'producer_lost' then result = 'Expired' else result = 'Ended' end
  elseif now >= tonumber(m[3]) then
    local seq = tonumber(m[5]) + 1
    if lost_event == '' then
      redis.call('XADD', log, '0-' .. seq, 'd', lost_data, 'x', 'producer_lost')
    else
      redis.call('XADD', log, '0-' .. seq, 'd', lost_data, 'e', lost_event, 'x', 'producer_lost')
    end
    redis.call('HSET', meta, 'last', seq, 'status', 'ended', 'end', 'producer_lost')
    redis.call('PEXPIRE', meta, tonumber(m[8]))
    redis.call('PEXPIRE', log, tonumber(m[8]))
    result = 'Expired'
  else
    local seq = tonumber(m[5])
    local first = seq == 0
    for i = a, a + 2 * n - 1, 2 do
      seq = seq + 1
      if ARGV[i] == '-' then
        redis.call('XADD', log, '0-' .. seq, 'd', ARGV[i + 1])
      else
        redis.call('XADD', log, '0-' .. seq, 'd', ARGV[i + 1], 'e', string.sub(ARGV[i], 2))
      end
    end
    if n > 0 then
      redis.call('HSET', meta, 'last', seq, 'until', now + tonumber(m[6]))
      if first then redis.call('PEXPIREAT', log, m[7]) end
    end
    result = seq
  end
  a = a + 2 * n
  out[#out + 1] = result
end
return out
`,
  },
).withReturnType<unknown>()

/** One stream's part of an {@link append}: its keys, its lease's token, its events (two arguments each). */
export interface AppendBatch {
  readonly meta: string
  readonly log: string
  readonly token: string
  readonly events: ReadonlyArray<string>
}

/** `renew(meta, log, token, lostEvent, lostData)`: `"OK"`, or the `LeaseLost` reason. */
export const renew = Redis.script(
  (meta: string, log: string, token: string, lostEvent: string, lostData: string) => [
    meta,
    log,
    token,
    lostEvent,
    lostData,
  ],
  {
    numberOfKeys: 2,
    lua: `${PRELUDE}
local lost = fence(ARGV[1], ARGV[2], ARGV[3])
if lost then return lost end
redis.call('HSET', meta, 'until', now_ms() + tonumber(redis.call('HGET', meta, 'lease')))
return 'OK'
`,
  },
).withReturnType<unknown>()

/** `finish(meta, log, token, lostEvent, lostData, reason, event, data)`: `"OK"`, or the `LeaseLost` reason. */
export const finish = Redis.script(
  (
    meta: string,
    log: string,
    token: string,
    lostEvent: string,
    lostData: string,
    reason: string,
    event: string,
    data: string,
  ) => [meta, log, token, lostEvent, lostData, reason, event, data],
  {
    numberOfKeys: 2,
    lua: `${PRELUDE}
local lost = fence(ARGV[1], ARGV[2], ARGV[3])
if lost then return lost end
store_end(ARGV[4], ARGV[5], ARGV[6])
return 'OK'
`,
  },
).withReturnType<unknown>()

/** `cancel(meta, log, event, data)`: `"cancelled"`, `"already_ended"` or `"missing"`. */
export const cancel = Redis.script(
  (meta: string, log: string, event: string, data: string) => [meta, log, event, data],
  {
    numberOfKeys: 2,
    lua: `${PRELUDE}
local status = redis.call('HGET', meta, 'status')
if not status then return 'missing' end
if status == 'ended' then return 'already_ended' end
store_end('cancelled', ARGV[1], ARGV[2])
return 'cancelled'
`,
  },
).withReturnType<unknown>()

/**
 * `page(meta, log, startId, count, lostEvent, lostData)`: `{ status, remainingLeaseMs, entries, lastSeq }` as an array, where
 * entries is `XRANGE log startId + COUNT count`; `{ "missing" }` for an unknown stream. A live stream whose lease
 * has expired gets its `producer_lost` end first (so the page holds it): the reader that notices stores it, once.
 */
export const page = Redis.script(
  (meta: string, log: string, startId: string, count: number, lostEvent: string, lostData: string) => [
    meta,
    log,
    startId,
    count,
    lostEvent,
    lostData,
  ],
  {
    numberOfKeys: 2,
    lua: `${PRELUDE}
local m = redis.call('HMGET', meta, 'status', 'until', 'last')
if not m[1] then return {'missing'} end
local status, remaining = m[1], 0
if status == 'live' then
  remaining = tonumber(m[2]) - now_ms()
  if remaining <= 0 then
    store_end('producer_lost', ARGV[3], ARGV[4])
    status, remaining = 'ended', 0
  end
end
return {status, remaining, redis.call('XRANGE', log, ARGV[1], '+', 'COUNT', ARGV[2]), tonumber(redis.call('HGET', meta, 'last'))}
`,
  },
).withReturnType<unknown>()

/**
 * `wake(key)`: adds an entry to a store instance's wake stream (kept short, expiring after an hour unused), so that
 * its blocked `XREAD` returns and takes in the readers that came since it was sent.
 */
export const wake = Redis.script((key: string) => [key], {
  numberOfKeys: 1,
  lua: `
redis.call('XADD', KEYS[1], 'MAXLEN', '~', '16', '*', 'w', '1')
redis.call('PEXPIRE', KEYS[1], 3600000)
return 1
`,
}).withReturnType<unknown>()
