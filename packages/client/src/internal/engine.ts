/**
 * The one implementation of the Friendli client, on `effect/http`'s `HttpClient`: one scoped request per
 * attempt (closing the scope aborts it, so an error, a non-2xx answer, an early exit or an interruption never
 * leaves the connection open), typed HTTP errors, a first-byte timeout on the response head, an idle timeout
 * between decoded items (keep-alive comments produce none, so they never reset it), and retries that stop for
 * good once an item was delivered.
 */

import type { DecodeError } from "@friendli-stream/stream"
import type { BatchPull, ByteStream, IdleLimit, OpenBody } from "@friendli-stream/stream/internal"
import { decodeExplained } from "@friendli-stream/stream/internal"
import * as Cause from "effect/Cause"
import * as Channel from "effect/Channel"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as HttpBody from "effect/http/HttpBody"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Pull from "effect/Pull"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { type ConnectionError, InvalidResponseError, type RequestFailure, TimeoutError } from "../ClientError.ts"
import type { ResolvedClientOptions } from "../ClientOptions.ts"
import { type ResponseBodyReader, webBody } from "../ResponseBody.ts"
import { connectionError, cutBody, statusError } from "./errors.ts"
import { serverOf } from "./genAi.ts"
import type { Endpoint } from "./request.ts"
import { parseRetryAfter, retrySchedule } from "./retry.ts"
import { instrumentCreate, instrumentStream, requestTelemetry } from "./telemetry.ts"

/** Turns the body of a 200 event stream into items. */
export interface Decode<A> {
  /** The Web body of a `fetch` response: read by the batching body reader (the fast path). */
  readonly body: (
    body: ByteStream,
    readError: (cause: unknown) => ConnectionError,
    idle: IdleLimit<ConnectionError | TimeoutError> | undefined,
  ) => OpenBody<A, ConnectionError | TimeoutError | DecodeError>
  /** The bytes of any other `HttpClient` backend (e.g. undici's), each upstream batch decoded at once. */
  readonly bytes: (
    bytes: Stream.Stream<Uint8Array, ConnectionError>,
    idle: IdleLimit<TimeoutError> | undefined,
  ) => Stream.Stream<A, ConnectionError | TimeoutError | DecodeError>
}

/**
 * The checks of a non-streamed response: a value the guard accepts is already what the Schema decodes (Friendli's
 * schemas transform nothing), and the Schema explains the rest.
 */
export interface ResponseSpec<A> {
  readonly guard: (u: unknown) => boolean
  readonly schema: Schema.Decoder<A>
}

/** The engine every public front calls. */
export interface Engine {
  readonly options: ResolvedClientOptions
  stream<A>(api: Endpoint, request: unknown, decode: Decode<A>): Stream.Stream<A, RequestFailure | DecodeError>
  create<A>(
    api: Endpoint,
    request: unknown,
    spec: ResponseSpec<A>,
  ): Effect.Effect<A, RequestFailure | InvalidResponseError>
}

const withTimeout =
  <E2>(ms: number, onTimeout: () => E2) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2, R> =>
    Number.isFinite(ms)
      ? Effect.timeoutOrElse(self, { duration: Duration.millis(ms), orElse: () => Effect.fail(onTimeout()) })
      : self

/** Builds the engine on an `HttpClient`. */
export const makeEngine = (
  options: ResolvedClientOptions,
  http: HttpClient.HttpClient,
  bodyOf: ResponseBodyReader = webBody,
): Engine => {
  const client = HttpClient.withScope(http)
  const headers: Record<string, string> = { ...options.headers }
  const server = serverOf(options.baseURL)
  if (options.token !== undefined) headers.authorization = `Bearer ${Redacted.value(options.token)}`
  if (options.team !== undefined) headers["x-friendli-team"] = options.team
  const firstByteTimeout = () =>
    new TimeoutError({
      reason: "FirstByte",
      timeoutMs: options.firstByteTimeoutMs,
      message:
        `No response came within firstByteTimeoutMs (${options.firstByteTimeoutMs} ms); the request was aborted. ` +
        `Raise firstByteTimeoutMs for slow servers.`,
    })
  const idleTimeout = () =>
    new TimeoutError({
      reason: "Idle",
      timeoutMs: options.idleTimeoutMs,
      message:
        `No data came for idleTimeoutMs (${options.idleTimeoutMs} ms) (keep-alive comments do not count); ` +
        `the request was aborted. Raise idleTimeoutMs for slow models.`,
    })

  /** One attempt, up to a 2xx response; the request lives as long as the scope. */
  const send = (
    api: Endpoint,
    body: HttpBody.HttpBody,
    accept: string,
    attempt: number,
  ): Effect.Effect<HttpClientResponse.HttpClientResponse, RequestFailure, Scope.Scope> => {
    const url = options.baseURL + api.path
    const request =
      api.method === "GET"
        ? HttpClientRequest.get(url, { headers: { ...headers, accept } })
        : HttpClientRequest.post(url, { headers: { ...headers, accept }, body })
    return Effect.gen(function* () {
      const response = yield* client.execute(request).pipe(
        Effect.mapError((e) => connectionError("Send", url, e.cause ?? e)),
        withTimeout(options.firstByteTimeoutMs, firstByteTimeout),
      )
      if (response.status >= 200 && response.status < 300) return response
      const text = yield* response.text.pipe(
        withTimeout(options.idleTimeoutMs, () => undefined),
        Effect.orElseSucceed(() => ""),
      )
      const now = yield* Clock.currentTimeMillis
      const get = (name: string) => response.headers[name]
      return yield* Effect.fail(
        statusError({
          status: response.status,
          text,
          requestId: get("x-request-id"),
          retryAfterMs: parseRetryAfter(get, now),
          url,
          attempts: attempt + 1,
          method: api.method,
        }),
      )
    })
  }

  const schedule = retrySchedule(options)
  /** The idle timeout between decoded items (keep-alive comments make none, so they never reset it). */
  const idle = Number.isFinite(options.idleTimeoutMs)
    ? { ms: options.idleTimeoutMs, onTimeout: idleTimeout }
    : undefined

  const stream = <A>(
    api: Endpoint,
    request: unknown,
    decode: Decode<A>,
  ): Stream.Stream<A, RequestFailure | DecodeError> => {
    const body = api.body(request, true)
    if (Result.isFailure(body)) return Stream.fail(body.failure)
    const url = options.baseURL + api.path
    type Batches = BatchPull<A, RequestFailure | DecodeError>
    /** One attempt, opened in `scope` (closing it aborts the request): the pull of its items. */
    const attempt = (retry: number, scope: Scope.Scope): Effect.Effect<Batches, RequestFailure> =>
      Effect.flatMap(Scope.provide(send(api, body.success, "text/event-stream", retry), scope), (response) => {
        const received = (cause: unknown) => connectionError("Receive", url, cause)
        const source = bodyOf(response)
        if (source !== undefined) return decode.body(source, received, idle)(scope)
        const items = decode.bytes(
          Stream.mapError(response.stream, (e) => received(e.cause ?? e)),
          idle,
        )
        return Scope.provide(Stream.toPull(items), scope)
      })
    // Retries cover the opening only: an attempt is retried while it fails before its first batch. Past that the
    // stream is the attempt's own pull, with no retry layer between it and the consumer.
    const items = Stream.fromChannel(
      Channel.fromTransform((_, scope) => {
        let retries = 0
        const open = Effect.suspend(() =>
          Effect.flatMap(Scope.fork(scope), (attemptScope) =>
            attempt(retries++, attemptScope).pipe(
              Effect.flatMap((pull) =>
                Effect.map(
                  Pull.catchDone(pull, () => Effect.succeed(undefined)),
                  (first) => ({ first, pull }),
                ),
              ),
              Effect.onError((cause) => Scope.close(attemptScope, Exit.failCause(cause))),
            ),
          ),
        )
        return Effect.map(Effect.retry(open, schedule), ({ first, pull }) => {
          let head = first
          if (head === undefined) return Cause.done()
          return Effect.suspend(() => {
            if (head === undefined) return pull
            const batch = head
            head = undefined
            return Effect.succeed(batch)
          })
        })
      }),
    )
    return instrumentStream(requestTelemetry(api.path, request, server), items)
  }

  const create = <A>(
    api: Endpoint,
    request: unknown,
    spec: ResponseSpec<A>,
  ): Effect.Effect<A, RequestFailure | InvalidResponseError> => {
    const body = api.body(request, false)
    if (Result.isFailure(body)) return Effect.fail(body.failure)
    const url = options.baseURL + api.path
    const run = () => {
      let retries = 0
      return Effect.suspend(() => {
        const retry = retries++
        return Effect.scoped(
          Effect.gen(function* () {
            const response = yield* send(api, body.success, "application/json", retry)
            const text = yield* response.text.pipe(
              Effect.mapError((e) => connectionError("Receive", url, e.cause ?? e)),
              withTimeout(options.idleTimeoutMs, idleTimeout),
            )
            return yield* decodeResponse(spec, text, response.headers["x-request-id"])
          }),
        )
      })
    }
    return instrumentCreate(
      requestTelemetry(api.path, request, server),
      Effect.suspend(() => Effect.retry(run(), schedule)),
    )
  }

  return { options, stream, create }
}

const decodeResponse = <A>(
  spec: ResponseSpec<A>,
  text: string,
  requestId: string | undefined,
): Effect.Effect<A, InvalidResponseError> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const explanation = e instanceof Error ? e.message : String(e)
    return Effect.fail(
      new InvalidResponseError({
        reason: "MalformedJson",
        message: `The response is not JSON (${explanation}): ${cutBody(text).slice(0, 120)}`,
        explanation,
        text: cutBody(text),
        requestId,
      }),
    )
  }
  if (spec.guard(value)) return Effect.succeed(value as A)
  const result = decodeExplained(spec.schema)(value)
  if (Result.isSuccess(result)) return Effect.succeed(result.success)
  const explanation = result.failure
  return Effect.fail(
    new InvalidResponseError({
      reason: "SchemaMismatch",
      message: `The response is JSON of the wrong shape:\n${explanation}`,
      explanation,
      text: cutBody(text),
      requestId,
    }),
  )
}
