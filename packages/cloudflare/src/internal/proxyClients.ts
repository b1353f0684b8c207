/**
 * The proxies' Promise clients: one per isolate for each distinct set of bindings (`FRIENDLI_TOKEN`,
 * `FRIENDLI_TEAM`, `FRIENDLI_DEPLOYMENT`, `FRIENDLI_BASE_URL`) and options object (by identity), reused by every
 * request that has them. A client is a `ManagedRuntime`: building one per request costs a layer build and leaves a
 * runtime nobody disposes. At most `MAX_CLIENTS` are kept, the least recently used is dropped first, and a dropped
 * client is closed (its runtime disposed) as soon as the streams it started have ended: closing it earlier would
 * abort them.
 *
 * `FRIENDLI_MODEL` is not part of the key: it only rewrites the request body, the client is the same.
 */

import { FetchAdapter, type PromiseClient } from "@friendli-stream/client"
import type { DeploymentKind } from "@friendli-stream/core"

/** The bindings that make a client. */
export interface ClientBindings {
  readonly token: string | undefined
  readonly team: string | undefined
  readonly deployment: DeploymentKind | undefined
  readonly baseURL: string | undefined
}

/** A cached client, with the streams it has running. */
export interface Lease {
  readonly client: PromiseClient
  /** Ends this stream's hold on the client (call it once, when the stream has ended in any way). */
  readonly release: () => void
}

interface Entry<O> {
  readonly bindings: ClientBindings
  readonly options: O
  readonly client: PromiseClient
  inFlight: number
  dropped: boolean
  closed: boolean
}

/** How many clients an isolate keeps (distinct bindings and options objects are few: usually one). */
export const MAX_CLIENTS = 8

/** What the cache holds and has done, for tests and diagnostics. */
export interface ProxyClientStats {
  /** Clients in the cache. */
  readonly cached: number
  /** Clients made and not closed yet: the cached ones, and dropped ones whose streams are still running. */
  readonly live: number
  /** Clients made since the isolate started. */
  readonly created: number
  /** Clients closed (their runtime disposed) since the isolate started. */
  readonly closed: number
  /** Streams running on a client of the cache or a dropped one. */
  readonly inFlight: number
}

const sameBindings = (a: ClientBindings, b: ClientBindings): boolean =>
  a.token === b.token && a.team === b.team && a.deployment === b.deployment && a.baseURL === b.baseURL

/**
 * Makes a cache of clients made by `make`. `acquire` throws what `make` throws (e.g. `ClientConfigError`), and
 * caches nothing then.
 */
export const makeClientCache = <O extends object>(make: (bindings: ClientBindings, options: O) => PromiseClient) => {
  // Least recently used first.
  const entries: Array<Entry<O>> = []
  const draining = new Set<Entry<O>>()
  let created = 0
  let closed = 0

  const close = (entry: Entry<O>): void => {
    if (entry.closed) return
    entry.closed = true
    draining.delete(entry)
    closed++
    // Closing a runtime whose layer holds no resource only fails if it was closed already: nothing to report.
    entry.client.close().catch(() => {})
  }

  const drop = (entry: Entry<O>): void => {
    entry.dropped = true
    if (entry.inFlight === 0) close(entry)
    else draining.add(entry)
  }

  const acquire = (bindings: ClientBindings, options: O): Lease => {
    const at = entries.findIndex((e) => e.options === options && sameBindings(e.bindings, bindings))
    let entry: Entry<O>
    if (at >= 0) {
      entry = entries[at]!
      if (at !== entries.length - 1) {
        entries.splice(at, 1)
        entries.push(entry)
      }
    } else {
      entry = { bindings, options, client: make(bindings, options), inFlight: 0, dropped: false, closed: false }
      created++
      entries.push(entry)
      while (entries.length > MAX_CLIENTS) drop(entries.shift()!)
    }
    entry.inFlight++
    let released = false
    return {
      client: entry.client,
      release: () => {
        if (released) return
        released = true
        entry.inFlight--
        if (entry.dropped && entry.inFlight === 0) close(entry)
      },
    }
  }

  const stats = (): ProxyClientStats => {
    let inFlight = 0
    for (const e of entries) inFlight += e.inFlight
    for (const e of draining) inFlight += e.inFlight
    return { cached: entries.length, live: created - closed, created, closed, inFlight }
  }

  /** Drops every client (each closed once its streams have ended). */
  const clear = (): void => {
    for (const entry of entries.splice(0)) drop(entry)
  }

  return { acquire, stats, clear }
}

const adapter = FetchAdapter.make()

/**
 * The proxies' clients: the bindings, then the options (which win, as they always have). The workerd tests read
 * `stats()` through this module.
 */
export const proxyClients = makeClientCache<FetchAdapter.FetchClientOptions>((bindings, options) =>
  adapter.createClient({ ...bindings, ...options }),
)
