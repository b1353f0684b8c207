/**
 * The Messages stream (`/v1/messages`, Anthropic's shape): typed events, no `[DONE]`. It ends with `message_stop`;
 * `event: error` (e.g. `overloaded_error`) is an `ApiError`. `ping` is delivered in both modes (Anthropic sends it,
 * Friendli's description does not list it): a consumer that has no use for it skips it.
 */
import * as Core from "@friendli-stream/core"
import * as Schema from "effect/Schema"
import type { Codec } from "../codec.ts"
import type { Protocol } from "../protocol.ts"
import { AnyObject, compatibleCodec, maybe, open, strictCodec } from "./schemaCodecs.ts"

/** `ping`: a keep-alive of Anthropic's protocol. */
export const MessagesPing = open({ type: Schema.Literal("ping") })

/** A `ping` event. */
export type MessagesPing = typeof MessagesPing.Type

/** A Messages event as strict mode delivers it (an `error` event is never delivered: it fails the stream). */
export type StrictMessagesEvent = Exclude<Core.MessagesStreamEvent, Core.MessagesStreamErrorEvent> | MessagesPing

const ping = compatibleCodec(MessagesPing)

const strict: Readonly<Record<string, Codec<StrictMessagesEvent>>> = {
  message_start: strictCodec(Core.isMessagesStreamMessageStart, Core.MessagesStreamMessageStart),
  content_block_start: strictCodec(Core.isMessagesStreamContentBlockStart, Core.MessagesStreamContentBlockStart),
  content_block_delta: strictCodec(Core.isMessagesStreamContentBlockDelta, Core.MessagesStreamContentBlockDelta),
  content_block_stop: strictCodec(Core.isMessagesStreamContentBlockStop, Core.MessagesStreamContentBlockStop),
  message_delta: strictCodec(Core.isMessagesStreamMessageDelta, Core.MessagesStreamMessageDelta),
  message_stop: strictCodec(Core.isMessagesStreamMessageStop, Core.MessagesStreamMessageStop),
  ping,
}

/** The Messages events that compatible mode knows: what the accumulator reads, every other field kept. */
export const CompatibleMessagesEvent = {
  messageStart: open({
    type: Schema.Literal("message_start"),
    message: open({
      id: Schema.optional(Schema.String),
      model: Schema.optional(Schema.String),
      role: Schema.optional(Schema.String),
      content: Schema.optional(Schema.Array(AnyObject)),
      stop_reason: maybe(Schema.String),
      stop_sequence: maybe(Schema.String),
      usage: maybe(AnyObject),
    }),
  }),
  contentBlockStart: open({
    type: Schema.Literal("content_block_start"),
    index: Schema.Number,
    content_block: open({ type: Schema.String }),
  }),
  contentBlockDelta: open({
    type: Schema.Literal("content_block_delta"),
    index: Schema.Number,
    delta: open({ type: Schema.String }),
  }),
  contentBlockStop: open({ type: Schema.Literal("content_block_stop"), index: Schema.Number }),
  messageDelta: open({
    type: Schema.Literal("message_delta"),
    delta: open({ stop_reason: maybe(Schema.String), stop_sequence: maybe(Schema.String) }),
    usage: maybe(AnyObject),
  }),
  messageStop: open({ type: Schema.Literal("message_stop") }),
  ping: MessagesPing,
} as const

type Events = typeof CompatibleMessagesEvent

/** A Messages event as compatible mode delivers it. */
export type CompatibleMessagesEvent = { [K in keyof Events]: Events[K]["Type"] }[keyof Events]

const c = CompatibleMessagesEvent
const compatible: Readonly<Record<string, Codec<CompatibleMessagesEvent>>> = {
  message_start: compatibleCodec(c.messageStart),
  content_block_start: compatibleCodec(c.contentBlockStart),
  content_block_delta: compatibleCodec(c.contentBlockDelta),
  content_block_stop: compatibleCodec(c.contentBlockStop),
  message_delta: compatibleCodec(c.messageDelta),
  message_stop: compatibleCodec(c.messageStop),
  ping,
}

export const messagesProtocol: Protocol<StrictMessagesEvent, CompatibleMessagesEvent> = {
  name: "Messages",
  strict,
  compatible,
  terminal: ["message_stop"],
  ending: "message_stop",
  doneAfterTerminal: false,
}
