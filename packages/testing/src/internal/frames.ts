/**
 * The mock's response events (`Frame`s, typed against the generated chunk and event types) and how each is framed
 * as server-sent events: `data: {json}` lines, optional `event:` names, comments, and the `[DONE]` sentinel.
 */

import type * as Core from "@friendli-stream/core"

/** A line terminator the mock can frame events with. */
export type Eol = "\n" | "\r\n" | "\r"

/**
 * What an event carries: a chunk or an event of Friendli's description, as it is on the wire, so that what the mock
 * streams is checked against the generated types when it compiles (the injected error event and the Messages API's
 * `ping` are the mock's own).
 */
export type FrameData =
  | Core.ChatCompletionChunkEncoded
  | Core.CompletionChunkEncoded
  | Core.ToolStatusEventEncoded
  | Core.StreamedAudioTranscriptionDataEncoded
  | Core.ResponsesStreamEventEncoded
  | Core.MessagesStreamEventEncoded
  | Core.MessagesStreamErrorEventEncoded
  | { readonly type: "ping" }
  | ErrorPayload

/** The body of an injected mid-stream error event. */
export interface ErrorPayload {
  readonly error: { readonly message: string; readonly type: string; readonly code: string | null }
}

/** One event of a response stream, before framing. */
export type Frame =
  | { readonly kind: "data"; readonly event?: string; readonly data: FrameData }
  | { readonly kind: "done" }

/** Frames one event: optional `event:` line, one `data:` line, blank line. */
export const frameEvent = (frame: Frame, eol: Eol): string => {
  if (frame.kind === "done") return `data: [DONE]${eol}${eol}`
  const data = JSON.stringify(frame.data)
  return `${frame.event === undefined ? "" : `event: ${frame.event}${eol}`}data: ${data}${eol}${eol}`
}

/** A comment line, which SSE clients must ignore (servers send these as keep-alives). */
export const frameComment = (text: string, eol: Eol): string => `: ${text}${eol}${eol}`
