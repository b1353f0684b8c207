/**
 * The Worker's side of resumable streams: the routes under `base`, each stream sent to its own Durable Object
 * (`idFromName(streamId)`). The start makes a new random stream id; a `GET <base>` that carries `Last-Event-ID` (an
 * `EventSource` reconnecting to the URL it started with) resumes the stream that id names.
 */
import { EventId } from "@friendli-stream/resumable"
import { jsonError } from "./http.ts"
import { type ResumableStart, STREAM_ID_HEADER } from "./object.ts"

/** Options of the routes. */
export interface ResumableRoutesOptions {
  /** The path of the streams (default `/v1/stream`): `POST`/`GET <base>` starts one, `<base>/<id>` is one. */
  readonly base?: string | undefined
  /** Reads a start request (a `POST`'s body, a `GET`'s query): what to start, or the answer (e.g. a `400`). */
  readonly start: (request: Request) => Promise<ResumableStart | Response>
}

const methodNotAllowed = (allow: string, what: string): Response =>
  jsonError(405, `Use ${allow.replace(", ", " or ")} ${what}.`, "invalid_request_error", "method_not_allowed", {
    allow,
  })

/** The routes of resumable streams; `undefined` for a path outside `base`. */
export const resumableRoutes = <O extends Rpc.DurableObjectBranded | undefined>(
  request: Request,
  namespace: DurableObjectNamespace<O>,
  options: ResumableRoutesOptions,
): Promise<Response> | undefined => {
  const base = (options.base ?? "/v1/stream").replace(/\/+$/, "")
  const url = new URL(request.url)
  const objectOf = (streamId: string) => namespace.get(namespace.idFromName(streamId))
  /** The request as the object of `streamId` gets it, at `<base>/<streamId>`, with its `Last-Event-ID`. */
  const forward = (streamId: string, method: "GET" | "DELETE"): Promise<Response> => {
    const target = new URL(`${base}/${streamId}`, url)
    target.search = url.search
    const lastEventId = request.headers.get("last-event-id")
    return objectOf(streamId).fetch(
      new Request(target, {
        method,
        headers: lastEventId === null ? {} : { "last-event-id": lastEventId },
        signal: request.signal,
      }),
    )
  }
  if (url.pathname === base) {
    if (request.method !== "POST" && request.method !== "GET") {
      return Promise.resolve(methodNotAllowed("POST, GET", base))
    }
    const lastEventId = request.headers.get("last-event-id") || url.searchParams.get("lastEventId") || ""
    if (request.method === "GET" && lastEventId !== "") {
      const streamId = EventId.streamIdOf(lastEventId)
      if (streamId === undefined) {
        return Promise.resolve(
          jsonError(
            400,
            `Last-Event-ID ${JSON.stringify(lastEventId)} is not an event id of this service (expected <streamId>.<seq>, as sent in the events' id: field).`,
            "invalid_request_error",
            "invalid_event_id",
          ),
        )
      }
      return forward(streamId, "GET")
    }
    return options.start(request).then((start) => {
      if (start instanceof Response) return start
      const streamId = EventId.makeStreamId()
      // No signal: the stream goes on when this request's client goes away.
      return objectOf(streamId).fetch(
        new Request(new URL(base, url), {
          method: "POST",
          headers: { "content-type": "application/json", [STREAM_ID_HEADER]: streamId },
          body: JSON.stringify(start),
        }),
      )
    })
  }
  if (!url.pathname.startsWith(`${base}/`)) return undefined
  const streamId = url.pathname.slice(base.length + 1)
  if (!EventId.isStreamId(streamId)) {
    return Promise.resolve(
      jsonError(
        404,
        `No stream ${streamId}: it never existed, or it ended longer ago than the retention time.`,
        "not_found",
        "stream_not_found",
      ),
    )
  }
  if (request.method !== "GET" && request.method !== "DELETE") {
    return Promise.resolve(methodNotAllowed("GET, DELETE", `${base}/<streamId>`))
  }
  return forward(streamId, request.method)
}
