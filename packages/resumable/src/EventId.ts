/**
 * Stream ids and event ids. A stream id is 128 random bits in base64url (22 characters); an event's SSE `id:` is
 * `<streamId>.<seq>`, opaque to clients, which send it back as `Last-Event-ID`.
 *
 * @since 0.3.0
 */
import * as Effect from "effect/Effect"
import { InvalidEventId } from "./ResumableError.ts"

const STREAM_ID = /^[A-Za-z0-9_-]{22}$/
const SEQ = /^[1-9][0-9]{0,15}$/

/**
 * A new stream id: 16 random bytes from `crypto.getRandomValues`, base64url without padding.
 *
 * @since 0.3.0
 */
export const makeStreamId = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/**
 * Whether `text` has the form of a stream id (22 base64url characters); says nothing of whether it exists.
 *
 * @since 0.3.0
 */
export const isStreamId = (text: string): boolean => STREAM_ID.test(text)

/**
 * The SSE `id:` of entry `seq` of stream `streamId`.
 *
 * @since 0.3.0
 */
export const format = (streamId: string, seq: number): string => `${streamId}.${seq}`

/**
 * The seq an event id names, checked against the stream it is given for: `InvalidEventId` with reason `Malformed`
 * when it is not an id this package wrote, `Foreign` when it names another stream.
 *
 * @since 0.3.0
 */
export const parse = (streamId: string, eventId: string): Effect.Effect<number, InvalidEventId> => {
  const dot = eventId.lastIndexOf(".")
  const idPart = eventId.slice(0, dot)
  const seqPart = eventId.slice(dot + 1)
  if (dot < 0 || !STREAM_ID.test(idPart) || !SEQ.test(seqPart)) {
    return Effect.fail(
      new InvalidEventId({
        reason: "Malformed",
        eventId,
        streamId,
        message: `Last-Event-ID ${JSON.stringify(eventId)} is not an event id of this service (expected <streamId>.<seq>, as sent in the events' id: field).`,
      }),
    )
  }
  if (idPart !== streamId) {
    return Effect.fail(
      new InvalidEventId({
        reason: "Foreign",
        eventId,
        streamId,
        message: `Last-Event-ID ${JSON.stringify(eventId)} belongs to stream ${idPart}, not to stream ${streamId}: resume a stream at its own URL.`,
      }),
    )
  }
  return Effect.succeed(Number(seqPart))
}

/**
 * The stream an event id names, when it has the form of one of ours (`<streamId>.<seq>`); `undefined` otherwise.
 * The handler uses it to resume a stream from `GET <base>` with `Last-Event-ID`, which is what `EventSource` sends
 * when it reconnects to the URL that started the stream.
 *
 * @since 0.3.0
 */
export const streamIdOf = (eventId: string): string | undefined => {
  const dot = eventId.lastIndexOf(".")
  const idPart = eventId.slice(0, dot)
  return dot > 0 && STREAM_ID.test(idPart) && SEQ.test(eventId.slice(dot + 1)) ? idPart : undefined
}
