/**
 * The Durable Object of one stream: `ResumableStreamObject` from `@friendli-stream/cloudflare/resumable`, which
 * keeps the stream in its SQLite storage and makes the upstream request itself. Without a `FRIENDLI_TOKEN` secret
 * its upstream is the mock Friendli endpoint in this isolate (paced by `MOCK_FAULTS`), as the Worker's was.
 *
 * @since 0.3.0
 */
import type { CloudflareClientOptions } from "@friendli-stream/cloudflare"
import { type ResumableEnv, ResumableStreamObject } from "@friendli-stream/cloudflare/resumable"
import { LIVE_PACING } from "@friendli-stream/testing"
import { workerMock } from "@friendli-stream/testing/worker"
import * as Redacted from "effect/Redacted"

/**
 * The Worker's bindings: the streams' Durable Objects (`STREAMS`), the client's and the streams' settings
 * (`FRIENDLI_TOKEN` as a secret, `FRIENDLI_MODEL`, `RESUMABLE_RETENTION_MS`, …), the service's bounds and CORS
 * (`MAX_BODY_BYTES`, `BODY_TIMEOUT_MS`, `CORS_ORIGINS`), `MOCK_FAULTS` (the pacing of the
 * mock it streams from when there is no token) and `TEST_HOOKS` (`"true"`: `?dropAfter=k` cuts each response after
 * k events, for the browser test).
 *
 * @since 0.1.0
 */
export interface Env extends ResumableEnv {
  readonly STREAMS: DurableObjectNamespace<StreamObject>
  readonly MOCK_FAULTS?: string
  readonly TEST_HOOKS?: string
  /** `*` or a comma-separated list of the origins allowed cross-origin (default: none). @since 0.3.0 */
  readonly CORS_ORIGINS?: string
  /** The largest request body in bytes (default 1 MiB; a larger one is a 413). @since 0.3.0 */
  readonly MAX_BODY_BYTES?: string
  /** How long a request body may take to arrive, in milliseconds (default 10 000; then a 408). @since 0.3.0 */
  readonly BODY_TIMEOUT_MS?: string
}

/**
 * The client options of the mock: its `fetch` instead of the network, a demo token, a base URL nobody serves.
 * One object for the isolate.
 */
const MOCK_CLIENT_OPTIONS: CloudflareClientOptions = {
  token: Redacted.make("demo-token"),
  baseURL: "https://mock.invalid/serverless",
  fetch: (input, init) => workerMock().fetch(new Request(input, init)),
}

/**
 * The stream's Durable Object (the class `wrangler.jsonc` binds as `STREAMS`): the bindings' client with a token,
 * the mock in this isolate without one.
 *
 * @since 0.3.0
 */
export class StreamObject extends ResumableStreamObject<Env> {
  protected override clientOptions(): CloudflareClientOptions {
    if (this.env.FRIENDLI_TOKEN) return super.clientOptions()
    // No token: the mock endpoint, in this isolate (made by the first stream, paced by its MOCK_FAULTS).
    workerMock({ MOCK_FAULTS: this.env.MOCK_FAULTS ?? LIVE_PACING })
    return MOCK_CLIENT_OPTIONS
  }
}
