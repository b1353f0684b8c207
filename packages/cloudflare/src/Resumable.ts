/**
 * `@friendli-stream/cloudflare/resumable`: resumable streams on Workers, one Durable Object per stream. The object
 * keeps its stream in its SQLite storage (`@friendli-stream/resumable`'s store contract), makes the upstream request
 * itself (so generation goes on when the browser goes away), feeds its readers live from memory after the replay,
 * marks a stream whose producer it lost (a restart mid-generation) `producer_lost`, and deletes the stream with an
 * alarm after the retention time. The Worker routes each stream to its object with {@link resumableRoutes}.
 *
 * @example
 * import { ResumableStreamObject, resumableRoutes } from "@friendli-stream/cloudflare/resumable"
 *
 * export class StreamObject extends ResumableStreamObject {}
 *
 * export default {
 *   fetch: (request: Request, env: { STREAMS: DurableObjectNamespace<StreamObject> }) =>
 *     resumableRoutes(request, env.STREAMS, {
 *       start: async (request) => ({ api: "completions", request: await request.json<Record<string, unknown>>() }),
 *     }) ?? new Response("Not found", { status: 404 }),
 * }
 *
 * @since 0.3.0
 */
import { DurableObject } from "cloudflare:workers"
import type { CloudflareClientOptions } from "./index.ts"
import { envClientOptions, type ResumableEnv, type ResumableStart, StreamObject } from "./internal/resumable/object.ts"
import { type ResumableRoutesOptions, resumableRoutes as routes } from "./internal/resumable/routes.ts"

export type {
  /** @since 0.3.0 */
  ResumableEnv,
  /** @since 0.3.0 */
  ResumableRoutesOptions,
  /** @since 0.3.0 */
  ResumableStart,
}

/**
 * The Durable Object of one resumable stream (SQLite-backed: declare it under `new_sqlite_classes` in a migration):
 * `@friendli-stream/resumable`'s handler and producer on the object's SQLite store.
 * Export it (or a subclass) from the Worker under the class name the binding names. It reads the client's bindings
 * (`FRIENDLI_TOKEN`, `FRIENDLI_TEAM`, `FRIENDLI_DEPLOYMENT`, `FRIENDLI_BASE_URL`, `FRIENDLI_MODEL`) and the stream's
 * times (`RESUMABLE_LEASE_MS`, `RESUMABLE_RETENTION_MS`, `RESUMABLE_MAX_DURATION_MS`); override
 * {@link ResumableStreamObject.clientOptions} to send the upstream request another way (e.g. a service binding's
 * `fetch`, or a mock).
 *
 * @since 0.3.0
 */
export class ResumableStreamObject<Env extends ResumableEnv = ResumableEnv> extends DurableObject<Env> {
  /** The object's state and routes. */
  readonly #object: StreamObject

  /**
   * Called by the runtime with the object's state (its storage) and the Worker's bindings.
   *
   * @since 0.3.0
   */
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.#object = new StreamObject(ctx, env, () => this.clientOptions())
  }

  /**
   * The options of the client that makes the upstream request: by default the bindings' (the token as a
   * `Redacted`). Called once, on the first start.
   *
   * @since 0.3.0
   */
  protected clientOptions(): CloudflareClientOptions {
    return envClientOptions(this.env)
  }

  /**
   * The stream's routes, as {@link resumableRoutes} forwards them: `POST` (start, with the id the Worker chose),
   * `GET` (read or resume with
   * `Last-Event-ID`), `DELETE` (cancel).
   *
   * @since 0.3.0
   */
  override fetch(request: Request): Promise<Response> {
    return this.#object.fetch(request)
  }

  /**
   * The alarm: stores `producer_lost` when the producer's lease expired, deletes the stream after the retention time.
   *
   * @since 0.3.0
   */
  override alarm(): Promise<void> {
    return this.#object.alarm()
  }

  /**
   * Readers of this object waiting for the next event right now (for tests and metrics).
   *
   * @since 0.3.0
   */
  get waitingReaders(): number {
    return this.#object.sqlite.waitingReaders()
  }
}

/**
 * The Worker's routes of resumable streams under `options.base` (default `/v1/stream`), each stream in the Durable
 * Object `idFromName(streamId)` of `namespace`:
 *
 * - `POST <base>` / `GET <base>?…`: `options.start` reads the request; a new stream, answered with its events (each
 *   with `id: <streamId>.<seq>`) and `Location: <base>/<streamId>`;
 * - `GET <base>` with `Last-Event-ID` (an `EventSource` reconnecting): the stream that id names, after that event;
 * - `GET <base>/<id>` (with `Last-Event-ID` or `?lastEventId=`: after it; `204` after the end), `DELETE <base>/<id>`.
 *
 * `undefined` for a path outside `base`.
 *
 * @since 0.3.0
 */
export const resumableRoutes: <O extends Rpc.DurableObjectBranded | undefined>(
  request: Request,
  namespace: DurableObjectNamespace<O>,
  options: ResumableRoutesOptions,
) => Promise<Response> | undefined = routes
