/**
 * Server-sent event framing: `data: {json}` lines, optional `event:` names, comments, and the `[DONE]` sentinel.
 */

/** A line terminator the mock can frame events with. */
export type Eol = "\n" | "\r\n" | "\r"

/** One event of a response stream, before framing. */
export type Frame =
  | { readonly kind: "data"; readonly event?: string; readonly data: unknown }
  | { readonly kind: "done" }

/** Frames one event: optional `event:` line, one `data:` line, blank line. */
export const frameEvent = (frame: Frame, eol: Eol): string => {
  if (frame.kind === "done") return `data: [DONE]${eol}${eol}`
  const data = JSON.stringify(frame.data)
  return `${frame.event === undefined ? "" : `event: ${frame.event}${eol}`}data: ${data}${eol}${eol}`
}

/** A comment line, which SSE clients must ignore (servers send these as keep-alives). */
export const frameComment = (text: string, eol: Eol): string => `: ${text}${eol}${eol}`
