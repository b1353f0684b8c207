/** The handler's responses: JSON errors in the OpenAI shape, and server-sent events with ids. */
import { SseResponse } from "@friendli-stream/stream"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Entry } from "../ResumableStore.ts"
import { sseEvent } from "./encoding.ts"

/** `{ "error": { "message", "type", "code" } }` with `status`, as the sample services' `jsonError` answers. */
export const jsonError = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers: Readonly<Record<string, string>> = {},
): Response =>
  new Response(`${JSON.stringify({ error: { message, type, code } })}\n`, {
    status,
    headers: { "content-type": "application/json", ...headers },
  })

/** A JSON body with `status`. */
export const json = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Response =>
  new Response(`${JSON.stringify(body)}\n`, { status, headers: { "content-type": "application/json", ...headers } })

/**
 * `200 text/event-stream` (`SseResponse.HEADERS`) whose body is the entries as events with their ids, one write per
 * batch of entries, and a keep-alive comment when nothing went out for `keepAliveMs`; the body ends after the end
 * entry. `signal` (the request's) stops the reading when the reader goes away, as cancelling the body does.
 */
export const sseResponse = <E>(
  streamId: string,
  entries: Stream.Stream<Entry, E>,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal | undefined,
  keepAliveMs: number | undefined,
): Effect.Effect<Response> =>
  Effect.map(Effect.context<never>(), (context) => {
    const encoder = new TextEncoder()
    const body = entries.pipe(
      Stream.mapArray((batch) => [encoder.encode(batch.map((entry) => sseEvent(streamId, entry)).join(""))] as const),
      Stream.toReadableStreamWith(context, signal === undefined ? undefined : { signal }),
    )
    const { "content-type": contentType, ...proxySafe } = SseResponse.HEADERS
    return new Response(SseResponse.withKeepAlive(body, keepAliveMs), {
      status: 200,
      headers: { ...proxySafe, ...headers, "content-type": contentType! },
    })
  })
