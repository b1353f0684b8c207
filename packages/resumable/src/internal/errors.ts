/** Failures more than one store builds. */
import { InvalidEventId } from "../ResumableError.ts"

/**
 * The `InvalidEventId` (reason `NotSent`) of a `Last-Event-ID` past the last event a stream stored: a made-up seq,
 * refused rather than waited on, since the event may never come.
 */
export const notSent = (streamId: string, afterSeq: number, lastSeq: number): InvalidEventId =>
  new InvalidEventId({
    reason: "NotSent",
    eventId: `${streamId}.${afterSeq}`,
    streamId,
    message: `Last-Event-ID ${JSON.stringify(`${streamId}.${afterSeq}`)} names event ${afterSeq} of stream ${streamId}, which has stored ${lastSeq} event${lastSeq === 1 ? "" : "s"} so far: resume from an id the stream sent.`,
  })
