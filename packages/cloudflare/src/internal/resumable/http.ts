/**
 * The HTTP side of resumable streams on Workers: entries as server-sent events with their `id:`, JSON errors, and
 * the statuses of the resumable errors.
 */
import { type Entry, EventId, type ResumableError } from "@friendli-stream/resumable"
import * as Stream from "effect/Stream"

/** The reconnection time sent at the top of every stream (`retry:`): `EventSource` waits this long, not 3 s. */
export const RETRY_MS = 1000

/** One entry as a server-sent event: `id: <streamId>.<seq>`, its `event:` if named, one `data:` line per line. */
export const encodeEntry = (streamId: string, entry: Entry): string =>
  `id: ${EventId.format(streamId, entry.seq)}\n${entry.event === undefined ? "" : `event: ${entry.event}\n`}${entry.data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join("")}\n`

/** A JSON error, `{ "error": { "message", "type", "code": null } }`. */
export const jsonError = (
  status: number,
  message: string,
  type = "invalid_request_error",
  headers: Readonly<Record<string, string>> = {},
): Response =>
  new Response(`${JSON.stringify({ error: { message, type, code: null } })}\n`, {
    status,
    headers: { "content-type": "application/json", ...headers },
  })

/** The status a resumable error answers with. */
export const errorResponse = (error: ResumableError): Response => {
  switch (error._tag) {
    case "StreamNotFound":
      return jsonError(404, error.message, "not_found")
    case "InvalidEventId":
      return jsonError(400, error.message)
    case "StreamExists":
      return jsonError(409, error.message, "conflict")
    default:
      return jsonError(503, error.message, "store_error")
  }
}

/** A `200 text/event-stream` of `entries`, each with its id; cancelling the body stops reading. */
export const sseResponse = (
  streamId: string,
  entries: Stream.Stream<Entry, ResumableError>,
  headers: Readonly<Record<string, string>> = {},
): Response => {
  const body = Stream.concat(
    Stream.succeed(`retry: ${RETRY_MS}\n\n`),
    Stream.map(entries, (entry) => encodeEntry(streamId, entry)),
  ).pipe(
    // A store that fails mid-stream: the body ends with an error event, not a silent cut.
    Stream.catch((error: ResumableError) =>
      Stream.succeed(
        `event: error\ndata: ${JSON.stringify({ error: { message: error.message, type: error._tag, code: null } })}\n\n`,
      ),
    ),
    Stream.encodeText,
    Stream.toReadableStream(),
  )
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers },
  })
}
