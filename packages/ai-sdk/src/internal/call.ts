/**
 * One request through `@friendli-stream/client`: options resolved when the call is made (so that a
 * missing token fails the call, not the import), the client's own retries off (the AI SDK's `maxRetries` is the
 * only retry loop), the response headers captured, and the stream opened up to its first item, so that an HTTP
 * error or an error before the first chunk is thrown by `doStream` itself, where the AI SDK retries it.
 */
import { LoadAPIKeyError } from "@ai-sdk/provider"
import {
  ClientConfigError,
  type ClientOptions,
  FriendliClient,
  type ResolvedClientOptions,
  resolveClientOptions,
} from "@friendli-stream/client"
import { runOrThrow } from "@friendli-stream/client/provider"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Stream from "effect/Stream"
import { toCallError } from "./errors.ts"

/** What the provider was made with, as the call needs it. */
export interface CallSettings {
  readonly client: ClientOptions
  readonly fetch: FriendliClient.FetchFunction | undefined
  /** How chunks are checked: Friendli's schemas, or leniently for other OpenAI-compatible servers. */
  readonly validation: "strict" | "compatible"
}

/** An opened stream: the first item (or none), the rest, and the response's headers. */
export interface Opened<A> {
  readonly first: { readonly done: true; readonly value?: A | undefined } | { readonly done: false; readonly value: A }
  readonly reader: ReadableStreamDefaultReader<A>
  readonly headers: Record<string, string>
  readonly url: string
}

/** The `HttpClient` on `fetch` (the one given, or the global one), built once per provider. */
export const httpClientOf = (settings: CallSettings): (() => HttpClient.HttpClient) => {
  let http: HttpClient.HttpClient | undefined
  return () => {
    http ??= Effect.runSync(Effect.provide(HttpClient.HttpClient, FriendliClient.fetchHttpClient(settings.fetch)))
    return http
  }
}

/** The options in force for one call (`maxRetries: 0`: the AI SDK retries), or the AI SDK's error for bad ones. */
export const resolveForCall = (settings: CallSettings, headers: Record<string, string | undefined> | undefined) => {
  const extra: Record<string, string> = { ...settings.client.headers }
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) extra[name] = value
  try {
    return resolveClientOptions({ ...settings.client, headers: extra, maxRetries: 0 })
  } catch (error) {
    if (error instanceof ClientConfigError && error.reason === "MissingToken") {
      throw new LoadAPIKeyError({ message: error.message })
    }
    throw error
  }
}

/** The URL a request to `path` goes to. */
export const urlOf = (options: ResolvedClientOptions, path: string): string => options.baseURL + path

/** A client whose responses' headers are copied into `headers` as they arrive. */
const tappedClient = (http: HttpClient.HttpClient, options: ResolvedClientOptions, headers: Record<string, string>) =>
  FriendliClient.fromHttpClient(
    options,
    HttpClient.tap(http, (response) =>
      Effect.sync(() => {
        for (const [name, value] of Object.entries(response.headers)) headers[name] = value
      }),
    ),
  )

/** One call to make: the `HttpClient`, the options in force, the API's path and body (for errors), the abort signal. */
export interface CallRequest {
  readonly http: HttpClient.HttpClient
  readonly options: ResolvedClientOptions
  readonly path: string
  readonly body: unknown
  readonly signal: AbortSignal | undefined
}

/** What a whole-response call of the client gave: its value and the response's headers. */
export interface Answered<A> {
  readonly value: A
  readonly headers: Record<string, string>
}

/**
 * Runs one whole-response call of the client (`models.list()`, `audio.transcriptions.create`): a failure is thrown
 * as `toCallError` makes it (an `APICallError` for an HTTP status or a connection error, else our typed error); the
 * abort signal interrupts the request and its reason is thrown.
 */
export const runCreate = async <A, E>(
  { http, options, path, body, signal }: CallRequest,
  run: (client: FriendliClient.FriendliClient) => Effect.Effect<A, E>,
): Promise<Answered<A>> => {
  const headers: Record<string, string> = {}
  try {
    return { value: await runOrThrow(Effect, run(tappedClient(http, options, headers)), signal), headers }
  } catch (error) {
    signal?.throwIfAborted()
    throw toCallError(error, { url: urlOf(options, path), body, headers })
  }
}

/**
 * Opens a stream of the client and reads up to its first item. A failure before it (an HTTP status, a connection
 * error, an in-stream error before any chunk) is thrown as the AI SDK's `APICallError` (or the typed error, when
 * it has no HTTP meaning); the abort signal aborts the request.
 */
export const openStream = async <A, E>(
  { http, options, path, body, signal }: CallRequest,
  run: (client: FriendliClient.FriendliClient) => Stream.Stream<A, E>,
): Promise<Opened<A>> => {
  const url = urlOf(options, path)
  const headers: Record<string, string> = {}
  const client = tappedClient(http, options, headers)
  signal?.throwIfAborted()
  const reader = Stream.toReadableStream(run(client)).getReader()
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => undefined)
  }
  signal?.addEventListener("abort", onAbort, { once: true })
  try {
    const first = await reader.read()
    signal?.throwIfAborted()
    return { first, reader, headers, url }
  } catch (error) {
    signal?.removeEventListener("abort", onAbort)
    signal?.throwIfAborted()
    throw toCallError(error, { url, body, headers })
  }
}
