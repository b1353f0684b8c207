/**
 * The Responses stream (`/v1/responses`): typed events, no `[DONE]` (one after the end is not read). It ends with
 * `response.completed` or `response.incomplete` (delivered, its reason in `response.incomplete_details`);
 * `response.failed` is an `ApiError` built from `response.error`.
 */
import * as Core from "@friendli-stream/core"
import * as Schema from "effect/Schema"
import { toApiError } from "../apiError.ts"
import type { Codec } from "../codec.ts"
import type { Protocol } from "../protocol.ts"
import { AnyObject, compatibleCodec, maybe, open, strictCodec } from "./schemaCodecs.ts"

const lifecycle = strictCodec(Core.isResponsesStreamResponseEvent, Core.ResponsesStreamResponseEvent)

const strict: Readonly<Record<string, Codec<Core.ResponsesStreamEvent>>> = {
  "response.created": lifecycle,
  "response.in_progress": lifecycle,
  "response.completed": lifecycle,
  "response.incomplete": lifecycle,
  "response.failed": lifecycle,
  "response.output_item.added": strictCodec(Core.isResponsesStreamOutputItemAdded, Core.ResponsesStreamOutputItemAdded),
  "response.output_item.done": strictCodec(Core.isResponsesStreamOutputItemDone, Core.ResponsesStreamOutputItemDone),
  "response.content_part.added": strictCodec(
    Core.isResponsesStreamContentPartAdded,
    Core.ResponsesStreamContentPartAdded,
  ),
  "response.content_part.done": strictCodec(Core.isResponsesStreamContentPartDone, Core.ResponsesStreamContentPartDone),
  "response.output_text.delta": strictCodec(Core.isResponsesStreamOutputTextDelta, Core.ResponsesStreamOutputTextDelta),
  "response.output_text.done": strictCodec(Core.isResponsesStreamOutputTextDone, Core.ResponsesStreamOutputTextDone),
  "response.reasoning_text.delta": strictCodec(
    Core.isResponsesStreamReasoningTextDelta,
    Core.ResponsesStreamReasoningTextDelta,
  ),
  "response.reasoning_text.done": strictCodec(
    Core.isResponsesStreamReasoningTextDone,
    Core.ResponsesStreamReasoningTextDone,
  ),
  "response.function_call_arguments.delta": strictCodec(
    Core.isResponsesStreamFunctionCallArgumentsDelta,
    Core.ResponsesStreamFunctionCallArgumentsDelta,
  ),
  "response.function_call_arguments.done": strictCodec(
    Core.isResponsesStreamFunctionCallArgumentsDone,
    Core.ResponsesStreamFunctionCallArgumentsDone,
  ),
}

// Compatible mode: what the accumulator reads, and every other field kept (`sequence_number` is optional: older
// servers send none).
const seq = { sequence_number: Schema.optional(Schema.Number) }

/** The response snapshot of a lifecycle event, as any Responses server sends it. @internal */
export const CompatibleResponseSnapshot = open({
  id: Schema.optional(Schema.String),
  status: maybe(Schema.String),
  model: maybe(Schema.String),
  output: Schema.optional(Schema.Array(AnyObject)),
  usage: maybe(AnyObject),
  incomplete_details: maybe(AnyObject),
  error: maybe(AnyObject),
})

const Lifecycle = open({
  type: Schema.Literals([
    "response.created",
    "response.queued",
    "response.in_progress",
    "response.completed",
    "response.incomplete",
    "response.failed",
  ]),
  response: CompatibleResponseSnapshot,
  ...seq,
})

const Item = open({ type: Schema.String, id: Schema.optional(Schema.String) })

const itemEvent = <const T extends string>(type: T) =>
  open({ type: Schema.Literal(type), output_index: Schema.Number, item: Item, ...seq })

const partEvent = <const T extends string>(type: T) =>
  open({
    type: Schema.Literal(type),
    output_index: Schema.Number,
    content_index: Schema.Number,
    part: open({ type: Schema.String }),
    ...seq,
  })

const textEvent = <const T extends string, const K extends string>(type: T, key: K) =>
  open({
    type: Schema.Literal(type),
    output_index: Schema.Number,
    content_index: Schema.optional(Schema.Number),
    ...({ [key]: Schema.String } as { readonly [P in K]: typeof Schema.String }),
    ...seq,
  })

/** The Responses events that compatible mode knows. */
export const CompatibleResponsesEvent = {
  lifecycle: Lifecycle,
  outputItemAdded: itemEvent("response.output_item.added"),
  outputItemDone: itemEvent("response.output_item.done"),
  contentPartAdded: partEvent("response.content_part.added"),
  contentPartDone: partEvent("response.content_part.done"),
  outputTextDelta: textEvent("response.output_text.delta", "delta"),
  outputTextDone: textEvent("response.output_text.done", "text"),
  reasoningTextDelta: textEvent("response.reasoning_text.delta", "delta"),
  reasoningTextDone: textEvent("response.reasoning_text.done", "text"),
  functionCallArgumentsDelta: textEvent("response.function_call_arguments.delta", "delta"),
  functionCallArgumentsDone: textEvent("response.function_call_arguments.done", "arguments"),
} as const

type Events = typeof CompatibleResponsesEvent

/** A Responses event as compatible mode delivers it. */
export type CompatibleResponsesEvent = { [K in keyof Events]: Events[K]["Type"] }[keyof Events]

const c = CompatibleResponsesEvent
const lifecycleCompatible = compatibleCodec(c.lifecycle)
const compatible: Readonly<Record<string, Codec<CompatibleResponsesEvent>>> = {
  "response.created": lifecycleCompatible,
  "response.queued": lifecycleCompatible,
  "response.in_progress": lifecycleCompatible,
  "response.completed": lifecycleCompatible,
  "response.incomplete": lifecycleCompatible,
  "response.failed": lifecycleCompatible,
  "response.output_item.added": compatibleCodec(c.outputItemAdded),
  "response.output_item.done": compatibleCodec(c.outputItemDone),
  "response.content_part.added": compatibleCodec(c.contentPartAdded),
  "response.content_part.done": compatibleCodec(c.contentPartDone),
  "response.output_text.delta": compatibleCodec(c.outputTextDelta),
  "response.output_text.done": compatibleCodec(c.outputTextDone),
  "response.reasoning_text.delta": compatibleCodec(c.reasoningTextDelta),
  "response.reasoning_text.done": compatibleCodec(c.reasoningTextDone),
  "response.function_call_arguments.delta": compatibleCodec(c.functionCallArgumentsDelta),
  "response.function_call_arguments.done": compatibleCodec(c.functionCallArgumentsDone),
}

/** `response.failed`: the `ApiError` of its `response.error` (`retryable` judged from the code, as for chat). */
const failure = (event: Core.ResponsesStreamEvent | CompatibleResponsesEvent, index: number) =>
  event.type === "response.failed" && "response" in event
    ? toApiError(event.response.error ?? "response.failed without an error object", index)
    : undefined

export const responsesProtocol: Protocol<Core.ResponsesStreamEvent, CompatibleResponsesEvent> = {
  name: "Responses",
  strict,
  compatible,
  terminal: ["response.completed", "response.incomplete", "response.failed"],
  ending: "response.completed, response.incomplete or response.failed",
  doneAfterTerminal: false,
  failure,
}
