/**
 * Items as stored events, and stored entries as the server-sent events of a response. The item encoding is the one
 * the client's `toResponse()` sends (`packages/client/src/internal/sseEncoding.ts`, `CHAT_ENCODING`): `data: {json}`
 * per item, a tool status as `event: tool_status`; a test compares the two on the same mock answer.
 */
import * as EventId from "../EventId.ts"
import type { Entry, StoredEvent } from "../ResumableStore.ts"

/** An item of the client's streams as the event our services send for it. */
export const encodeItem = (item: unknown): StoredEvent => {
  const tagged = item as { readonly _tag?: unknown; readonly status?: unknown; readonly chunk?: unknown } | null
  if (tagged !== null && typeof tagged === "object") {
    if (tagged._tag === "ToolStatus" && "status" in tagged) {
      return { event: "tool_status", data: JSON.stringify(tagged.status) }
    }
    if (tagged._tag === "Chunk" && "chunk" in tagged) return { data: JSON.stringify(tagged.chunk) }
  }
  return { data: JSON.stringify(item) }
}

const LINE_BREAK = /\r\n|\r|\n/

/** One entry as an SSE event with its `id:` (each line of the data its own `data:` line). */
export const sseEvent = (streamId: string, entry: Entry): string => {
  let text = `id: ${EventId.format(streamId, entry.seq)}\n`
  if (entry.event !== undefined) text += `event: ${entry.event}\n`
  for (const line of entry.data.split(LINE_BREAK)) text += `data: ${line}\n`
  return `${text}\n`
}
