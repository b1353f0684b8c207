/**
 * The audio transcription stream (`/v1/audio/transcriptions` with `stream: true`): `transcript.text.delta` events,
 * then `transcript.text.done` (the whole text, and usage), then `data: [DONE]`.
 */
import * as Core from "@friendli-stream/core"
import * as Schema from "effect/Schema"
import type { Codec } from "../codec.ts"
import type { Protocol } from "../protocol.ts"
import { AnyObject, compatibleCodec, maybe, open, strictCodec } from "./schemaCodecs.ts"

const data = strictCodec(Core.isStreamedAudioTranscriptionData, Core.StreamedAudioTranscriptionData)

const strict: Readonly<Record<string, Codec<Core.StreamedAudioTranscriptionData>>> = {
  "transcript.text.delta": data,
  "transcript.text.done": data,
}

/** The transcription events that compatible mode knows: what the accumulator reads, every other field kept. */
export const CompatibleTranscriptionEvent = {
  delta: open({ type: Schema.Literal("transcript.text.delta"), delta: Schema.String }),
  done: open({ type: Schema.Literal("transcript.text.done"), text: Schema.String, usage: maybe(AnyObject) }),
} as const

/** A transcription event as compatible mode delivers it. */
export type CompatibleTranscriptionEvent =
  | typeof CompatibleTranscriptionEvent.delta.Type
  | typeof CompatibleTranscriptionEvent.done.Type

const compatible: Readonly<Record<string, Codec<CompatibleTranscriptionEvent>>> = {
  "transcript.text.delta": compatibleCodec(CompatibleTranscriptionEvent.delta),
  "transcript.text.done": compatibleCodec(CompatibleTranscriptionEvent.done),
}

export const transcriptionProtocol: Protocol<Core.StreamedAudioTranscriptionData, CompatibleTranscriptionEvent> = {
  name: "transcription",
  strict,
  compatible,
  terminal: ["transcript.text.done"],
  ending: "transcript.text.done",
  doneAfterTerminal: true,
}
