/**
 * The Redis {@link ResumableStore}: streams shared by every instance on one Redis, through Effect's own
 * `effect/persistence/Redis` service (so any `Redis` layer serves: `@effect/platform-node`'s `NodeRedis.layer`, which
 * also runs on Deno and Bun, or another). Per stream, a Redis stream of entries (one `XADD` per event, one `EVALSHA`
 * per batch) and a meta hash (lease token and expiry, status, last seq, end), all under one key prefix; writes are Lua
 * scripts, so fencing is atomic; replays come in bounded pages (`XRANGE … COUNT`); live readers wait on the store's
 * one blocking read (`XREAD BLOCK` over every stream its readers follow, on one reserved connection), never past the
 * producer's lease, so a lost producer is noticed (and `producer_lost` stored once) within the lease time. Keys
 * expire `retentionMs` after the end, and while live after `maxDurationMs + retentionMs`, so a crash leaves nothing
 * for ever.
 *
 * @since 0.3.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redis from "effect/persistence/Redis"
import {
  DEFAULT_PREFIX,
  makeRedisStore,
  type RedisCommandCounts,
  type RedisStoreOptions,
  type RedisStreamKeys,
  streamKeys,
} from "./internal/redis/store.ts"
import { ResumableStore } from "./ResumableStore.ts"

export type {
  /** @since 0.3.0 */
  RedisCommandCounts,
  /** @since 0.3.0 */
  RedisStoreOptions,
  /** @since 0.3.0 */
  RedisStreamKeys,
}

/**
 * The prefix of every key a Redis store writes unless told otherwise: `friendli:resumable:`.
 *
 * @since 0.3.0
 */
export const defaultPrefix: string = DEFAULT_PREFIX

/**
 * The two keys of a stream under a prefix: `<prefix>{<streamId>}:meta` (a hash) and `<prefix>{<streamId>}:log` (a
 * Redis stream); the braces keep both in one hash slot on a Redis Cluster.
 *
 * @since 0.3.0
 */
export const keys = (streamId: string, prefix: string = DEFAULT_PREFIX): RedisStreamKeys => streamKeys(prefix, streamId)

/**
 * What a Redis store did: the commands it issued (for "Redis commands per token"), and its key names.
 *
 * @since 0.3.0
 */
export class RedisStore extends Context.Service<
  RedisStore,
  {
    /** The commands this store issued since its layer was built, by kind. @since 0.3.0 */
    readonly commands: Effect.Effect<RedisCommandCounts>
    /** The keys of a stream under this store's prefix. @since 0.3.0 */
    readonly keys: (streamId: string) => RedisStreamKeys
  }
>()("@friendli-stream/resumable/RedisStore") {}

/**
 * A Redis store as the {@link ResumableStore} (and its {@link RedisStore} counts), on the `Redis` service the layer
 * is given; alive as long as the layer: closing it fails the readers still waiting with `StoreError` reason `Closed`.
 *
 * @since 0.3.0
 */
export const layer = (options?: RedisStoreOptions): Layer.Layer<ResumableStore | RedisStore, never, Redis.Redis> =>
  Layer.effectContext(
    Effect.map(makeRedisStore(options), ({ store, commands, keys }) =>
      Context.make(ResumableStore, store).pipe(Context.add(RedisStore, { commands, keys })),
    ),
  )
