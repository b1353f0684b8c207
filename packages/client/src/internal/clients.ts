/**
 * The Effect client and the Promise client of a table of APIs: Friendli's (`apis.ts`), or a larger one (the
 * suites add a made-up API to check that an entry is all a new API needs).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from "../ClientOptions.ts"
import type { EffectClientOf } from "../FriendliClient.ts"
import type { AbortSignalInput, PromiseClientOf } from "../PromiseClient.ts"
import { ResponseBody, type ResponseBodyReader } from "../ResponseBody.ts"
import { effectClientOf, promiseMethodsOf, type Table } from "./apis.ts"
import { makeEngine } from "./engine.ts"
import { type Accumulator, EffectStreamHandle, runOrThrow } from "./handle.ts"
import { telemetryLayer } from "./otel.ts"

/**
 * The Effect client of a table: its options, and each entry's methods; `bodyOf` reads the bodies of streamed
 * responses (default: `ResponseBody.webBody`).
 */
export const clientOf = <T extends Table>(
  options: ResolvedClientOptions,
  http: HttpClient.HttpClient,
  table: T,
  bodyOf?: ResponseBodyReader,
): EffectClientOf<T> => {
  const methods = effectClientOf(table, makeEngine(options, http, bodyOf), options) as Record<string, unknown>
  return { ...methods, options } as EffectClientOf<T>
}

/**
 * An accumulator whose failure to fold an item (e.g. arguments that are not JSON) does not stop the iteration: it
 * is thrown by `result()`, so the final response rejects with it.
 */
const deferredFailure = <A, F>(acc: { add(item: A): unknown; result(): F }): Accumulator<A, F> => {
  let failure: { readonly error: unknown } | undefined
  return {
    add: (item) => {
      if (failure !== undefined) return
      try {
        acc.add(item)
      } catch (error) {
        failure = { error }
      }
    },
    result: () => {
      if (failure !== undefined) throw failure.error
      return acc.result()
    },
  }
}

/** The Effect client a Promise client runs on, whatever its table. */
const TableClient = Context.Service<{ readonly options: ResolvedClientOptions }>(
  "@friendli-stream/client/PromiseClient/TableClient",
)

/** The Promise client of any table of APIs (Friendli's, or one with more entries). */
export const promiseClientOf = <T extends Table>(
  httpClient: Layer.Layer<HttpClient.HttpClient>,
  options: ClientOptions,
  table: T,
): PromiseClientOf<T> => {
  const resolved = resolveClientOptions(options)
  const runtime = ManagedRuntime.make(
    Layer.provide(
      Layer.effect(
        TableClient,
        Effect.flatMap(HttpClient.HttpClient, (http) =>
          Effect.map(ResponseBody, (bodyOf) => clientOf(resolved, http, table, bodyOf)),
        ),
      ),
      httpClient,
    ).pipe(Layer.provideMerge(telemetryLayer(options.telemetry))),
  )
  const methods = promiseMethodsOf(table, {
    stream: (entry, stream, o) => {
      const h = new EffectStreamHandle(
        runtime,
        Stream.unwrap(Effect.map(TableClient, stream)),
        deferredFailure(entry.decoder.accumulator()),
        o?.signal as AbortSignalInput | undefined,
        entry.encoding,
      )
      return entry.final === "finalCompletion" ? h : Object.assign(h, { [entry.final]: () => h.finalCompletion() })
    },
    run: (effect, o) =>
      runOrThrow(runtime, Effect.flatMap(TableClient, effect), o?.signal as AbortSignalInput | undefined),
  })
  return { ...methods, options: resolved, close: () => runtime.dispose() } as PromiseClientOf<T>
}
