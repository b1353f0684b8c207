/**
 * The Worker's side of resumable streams: the routes under `base`, each stream sent to its own Durable Object
 * (`idFromName(streamId)`). The start makes a new random stream id; a `GET <base>` that carries `Last-Event-ID` (an
 * `EventSource` reconnecting to the URL it started with) resumes the stream that id names.
 */
import { EventId } from "@friendli-stream/resumable"
import * as Effect from "effect/Effect"
import { errorResponse, jsonError } from "./http.ts"
import type { ResumableStart } from "./object.ts"

/** Options of the routes. */
export interface ResumableRoutesOptions {
  /** The path of the streams (default `/v1/stream`): `POST`/`GET <base>` starts one, `<base>/<id>` is one. */
  readonly base?: string | undefined
  /** Reads a start request (a `POST`'s body, a `GET`'s query): what to start, or the answer (e.g. a `400`). */
  readonly start: (request: Request) => Promise<ResumableStart | Response>
}

/** The stream id an event id names, or the `400` of a malformed one. */
const streamOf = (eventId: string): string | Response => {
  const candidate = eventId.slice(0, Math.max(0, eventId.lastIndexOf(".")))
  if (EventId.isStreamId(candidate)) return candidate
  const parsed = Effect.runSync(Effect.result(EventId.parse("", eventId)))
  return parsed._tag === "Failure" ? errorResponse(parsed.failure) : jsonError(400, `Bad Last-Event-ID ${eventId}.`)
}

/** Forwards `request` to the object of `streamId`, at `<base>/<streamId>`. */
const forward = <O extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<O>,
  streamId: string,
  url: URL,
  base: string,
  init: RequestInit,
): Promise<Response> => {
  const stub = namespace.get(namespace.idFromName(streamId))
  const target = new URL(`${base}/${streamId}`, url)
  target.search = url.search
  return stub.fetch(new Request(target, init))
}

/** The routes of resumable streams; `undefined` for a path outside `base`. */
export const resumableRoutes = <O extends Rpc.DurableObjectBranded | undefined>(
  request: Request,
  namespace: DurableObjectNamespace<O>,
  options: ResumableRoutesOptions,
): Promise<Response> | undefined => {
  const base = options.base ?? "/v1/stream"
  const url = new URL(request.url)
  const lastEventId = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId")
  const headers: Record<string, string> = lastEventId === null ? {} : { "last-event-id": lastEventId }
  if (url.pathname === base) {
    if (request.method !== "POST" && request.method !== "GET") {
      return Promise.resolve(
        jsonError(405, `Use POST (or GET) ${base} to start a stream.`, undefined, { allow: "GET, POST" }),
      )
    }
    if (request.method === "GET" && lastEventId !== null && lastEventId !== "") {
      const streamId = streamOf(lastEventId)
      if (typeof streamId !== "string") return Promise.resolve(streamId)
      return forward(namespace, streamId, url, base, { method: "GET", headers })
    }
    return options.start(request).then((start) => {
      if (start instanceof Response) return start
      const streamId = EventId.makeStreamId()
      // No signal: the stream goes on when this request's client goes away.
      return forward(namespace, streamId, url, base, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(start),
      })
    })
  }
  if (!url.pathname.startsWith(`${base}/`)) return undefined
  const streamId = url.pathname.slice(base.length + 1)
  if (!EventId.isStreamId(streamId)) {
    return Promise.resolve(
      jsonError(404, `No stream ${JSON.stringify(streamId)}: not an id this service made.`, "not_found"),
    )
  }
  if (request.method !== "GET" && request.method !== "DELETE") {
    return Promise.resolve(
      jsonError(405, `Use GET (to read) or DELETE (to cancel) ${base}/${streamId}.`, undefined, {
        allow: "GET, DELETE",
      }),
    )
  }
  return forward(namespace, streamId, url, base, { method: request.method, headers, signal: request.signal })
}
