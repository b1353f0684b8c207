/**
 * The streamed APIs whose events carry their kind in a JSON `type` field (Responses, Messages, audio
 * transcriptions), described once each as a {@link Protocol}: a codec per event type, the events that end the stream,
 * and the events that report a failure. One codec and one end tracker serve them all, on top of the JSON stage.
 *
 * - The kind is the data's `type` (an `event:` line, when there is one, is not needed: some servers send none).
 * - `type: "error"` is an in-stream `ApiError`, whatever the event's name.
 * - A type the protocol does not know fails with `SchemaMismatch` naming it in strict mode; in compatible mode it is
 *   delivered as an {@link UnknownStreamEvent}.
 */
import { ChunkDecodeError } from "../StreamError.ts"
import { toApiError } from "./apiError.ts"
import { type Codec, cutText } from "./codec.ts"
import type { EndTracker } from "./json.ts"
import { isRecord } from "./record.ts"
import { sentence } from "./sentence.ts"

/** An event of a type the protocol does not know, delivered as it came in compatible mode. */
export interface UnknownStreamEvent {
  readonly type: "unknown"
  /** The event's own `type`. */
  readonly eventType: string
  /** The event's data, parsed. */
  readonly data: { readonly [key: string]: unknown }
}

/** One streamed API. `S`: the events of strict mode, `C`: the known events of compatible mode. */
export interface Protocol<S extends { readonly type: string }, C extends { readonly type: string }> {
  /** The API's name, for messages. */
  readonly name: string
  /** The codec of each known event type, strict (Friendli's schemas). */
  readonly strict: Readonly<Record<string, Codec<S>>>
  /** The codec of each known event type, compatible (only what the accumulator reads is checked). */
  readonly compatible: Readonly<Record<string, Codec<C>>>
  /** The event types that end the stream. */
  readonly terminal: ReadonlyArray<string>
  /** The terminal events, as a truncation message names them. */
  readonly ending: string
  /** Whether `data: [DONE]` must follow the terminal event (transcriptions); otherwise nothing after it is read. */
  readonly doneAfterTerminal: boolean
  /** The failure an event reports (e.g. `response.failed`), thrown instead of delivering it. */
  readonly failure?: ((event: S | C, index: number) => Error | undefined) | undefined
}

const mismatch = (index: number, type: string, id: string | undefined, data: string, explanation: string) =>
  new ChunkDecodeError({
    reason: "SchemaMismatch",
    message:
      `Event ${index}${type === "message" ? "" : ` ("${type}")`} is not an event of this stream: ${sentence(explanation)}\n` +
      `If the server is not Friendli, validation: "compatible" delivers events of unknown types as they are.`,
    text: cutText(data),
    eventIndex: index,
    eventId: id,
    explanation,
  })

/** The codec of a protocol in one validation mode: dispatch on the data's `type`. */
const dispatch = <S extends { readonly type: string }, C extends { readonly type: string }, A extends S | C, U>(
  protocol: Protocol<S, C>,
  table: Readonly<Record<string, Codec<A>>>,
  unknown: ((type: string, data: { readonly [key: string]: unknown }) => U) | undefined,
): Codec<A | U> => ({
  decode(value, name, index, id, data) {
    const type = isRecord(value) ? value.type : undefined
    if (typeof type !== "string") {
      throw mismatch(index, name, id, data, `its data has no string "type" (a ${protocol.name} event names its kind)`)
    }
    if (type === "error") throw toApiError(value, index)
    const codec = Object.hasOwn(table, type) ? table[type] : undefined
    if (codec === undefined) {
      if (unknown !== undefined) return unknown(type, value as { readonly [key: string]: unknown })
      throw mismatch(
        index,
        name,
        id,
        data,
        `"${type}" is not a ${protocol.name} event type Friendli's description lists`,
      )
    }
    const event = codec.decode(value, type, index, id, data)
    const failure = protocol.failure?.(event, index)
    if (failure !== undefined) throw failure
    return event
  },
})

const unknownEvent = (eventType: string, data: { readonly [key: string]: unknown }): UnknownStreamEvent => ({
  type: "unknown",
  eventType,
  data,
})

/** The codecs of a protocol: strict (unknown types fail), and compatible (unknown types delivered as they came). */
export const protocolCodecs = <S extends { readonly type: string }, C extends { readonly type: string }>(
  protocol: Protocol<S, C>,
): { readonly strict: Codec<S>; readonly compatible: Codec<C | UnknownStreamEvent> } => ({
  strict: dispatch<S, C, S, never>(protocol, protocol.strict, undefined),
  compatible: dispatch(protocol, protocol.compatible, unknownEvent),
})

/** A fresh end tracker for one stream of a protocol. */
export const protocolEnd =
  (protocol: Pick<Protocol<never, never>, "terminal" | "ending" | "doneAfterTerminal">) =>
  (): EndTracker<{ readonly type: string }> => {
    let terminal: string | undefined
    return {
      see(output) {
        if (terminal !== undefined || !protocol.terminal.includes(output.type)) return false
        terminal = output.type
        return !protocol.doneAfterTerminal
      },
      missing(doneSeen) {
        if (terminal === undefined) return doneSeen ? `${protocol.ending} ("data: [DONE]" came first)` : protocol.ending
        return protocol.doneAfterTerminal && !doneSeen ? `"data: [DONE]" (after ${terminal})` : undefined
      },
    }
  }
