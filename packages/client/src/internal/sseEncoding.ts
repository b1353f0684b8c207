/** Re-encoding items as server-sent events, so a stream can be passed on (e.g. as the body of a `Response`). */
import type { ToolAssistedChatStream } from "@friendli-stream/stream"
import { errorObject } from "@friendli-stream/stream/internal"

/** `data: JSON` and a blank line; a tool status becomes `event: tool_status`. */
export const encodeEvent = (item: unknown): string => {
  const tagged = item as Partial<ToolAssistedChatStream.ToolAssistedChatEvent> | null
  if (tagged !== null && typeof tagged === "object" && tagged._tag === "ToolStatus" && "status" in tagged) {
    return `event: tool_status\ndata: ${JSON.stringify(tagged.status)}\n\n`
  }
  if (tagged !== null && typeof tagged === "object" && tagged._tag === "Chunk" && "chunk" in tagged) {
    return `data: ${JSON.stringify(tagged.chunk)}\n\n`
  }
  return `data: ${JSON.stringify(item)}\n\n`
}

/** The event that ends a stream. */
export const DONE_EVENT = "data: [DONE]\n\n"

/** How a handle re-encodes its items: each item's event, and what ends the stream (`""`: nothing). */
export interface SseEncoding {
  readonly event: (item: unknown) => string
  readonly done: string
}

/** Completions, chat and tool-assisted chat: `data: {json}` (`event: tool_status`), then `data: [DONE]`. */
export const CHAT_ENCODING: SseEncoding = { event: encodeEvent, done: DONE_EVENT }

/** An event whose `type` names it (Responses, Messages), an unknown one under its own type; `event: TYPE` + data. */
export const encodeTypedEvent = (item: unknown): string => {
  const e = item as { readonly type?: unknown; readonly eventType?: unknown; readonly data?: unknown }
  if (e.type === "unknown" && typeof e.eventType === "string") {
    return `event: ${e.eventType}\ndata: ${JSON.stringify(e.data)}\n\n`
  }
  return `event: ${String(e.type)}\ndata: ${JSON.stringify(item)}\n\n`
}

/** Responses and Messages: `event: TYPE` + `data: {json}`, and no `[DONE]` (the terminal event ends them). */
export const TYPED_ENCODING: SseEncoding = { event: encodeTypedEvent, done: "" }

/** Transcriptions: `data: {json}` (an unknown event: its data), then `data: [DONE]`. */
export const TRANSCRIPTION_ENCODING: SseEncoding = {
  event: (item) => {
    const e = item as { readonly type?: unknown; readonly eventType?: unknown; readonly data?: unknown }
    return `data: ${JSON.stringify(e.type === "unknown" && typeof e.eventType === "string" ? e.data : item)}\n\n`
  },
  done: DONE_EVENT,
}

/**
 * A failure as an `event: error` with the OpenAI error shape, which `Sse.decode`-based decoders (ours included)
 * read back as an in-stream `ApiError`.
 */
export const encodeError = (error: unknown): string =>
  `event: error\ndata: ${JSON.stringify({ error: errorObject(error) })}\n\n`
