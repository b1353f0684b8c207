/**
 * What compatible mode delivers for an event of a type its protocol does not know (Responses, Messages and
 * transcription streams).
 *
 * @since 0.2.0
 */
import type * as Internal from "./internal/protocol.ts"

/**
 * An event of a type the stream's protocol does not know (e.g. a Responses `response.web_search_call.searching` or
 * a Messages `server_tool_use` delta from another server), delivered as it came by `validation: "compatible"`.
 * Strict mode fails with `ChunkDecodeError` (`SchemaMismatch`) naming the type instead. Its own `type` is
 * `"unknown"`, so that narrowing on `type` still works for the known events; `eventType` is the event's.
 *
 * @since 0.2.0
 */
export type UnknownStreamEvent = Internal.UnknownStreamEvent
