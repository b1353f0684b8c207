/**
 * The provider-neutral part model: what the core's part state machine and built-in tool statuses give, and what
 * each AI provider translates into its own parts.
 */
import type { Finish } from "./finish.ts"
import type { Usage } from "./usage.ts"

/**
 * A choice other than choice 0, as the accumulator folded it.
 *
 * @since 0.3.0
 */
export interface OtherChoice {
  readonly index: number
  readonly text: string
  readonly reasoning: string | null
  readonly finishReason: string | null
}

/**
 * The response's id, model and creation time, from its first chunk (or a whole response).
 *
 * @since 0.3.0
 */
export interface ResponseMetadata {
  readonly type: "response-metadata"
  readonly id?: string
  readonly modelId?: string
  readonly timestamp?: Date
}

/**
 * How a stream ended: the finish of choice 0, the usage, choice 0's logprobs (one entry a chunk that had them) and
 * the other choices.
 *
 * @since 0.3.0
 */
export interface FinishPart {
  readonly type: "finish"
  readonly finish: Finish
  readonly usage: Usage
  readonly logprobs: ReadonlyArray<unknown>
  readonly otherChoices: ReadonlyArray<OtherChoice>
}

/**
 * A part that opens or closes a block (reasoning, text, tool input) by its id.
 *
 * @since 0.3.0
 */
export interface Marker<T extends string> {
  readonly type: T
  readonly id: string
}

/**
 * A piece of a block's text.
 *
 * @since 0.3.0
 */
export interface Delta<T extends string> {
  readonly type: T
  readonly id: string
  readonly delta: string
}

/**
 * A provider-neutral stream part. `tool-call.input` is the arguments' JSON text (`"{}"` when none were streamed);
 * `tool-result.result` is the built-in tool's result parsed as JSON where it is JSON (its text where not, `null`
 * when it sent none), or `{ type, message }` when it failed.
 *
 * @since 0.3.0
 */
export type Part =
  | ResponseMetadata
  | Marker<"reasoning-start">
  | Delta<"reasoning-delta">
  | Marker<"reasoning-end">
  | Marker<"text-start">
  | Delta<"text-delta">
  | Marker<"text-end">
  | { readonly type: "tool-input-start"; readonly id: string; readonly name: string }
  | Delta<"tool-input-delta">
  | Marker<"tool-input-end">
  | {
      readonly type: "tool-call"
      readonly id: string
      readonly name: string
      readonly input: string
      readonly providerExecuted: boolean
    }
  | {
      readonly type: "tool-result"
      readonly id: string
      readonly name: string
      readonly result: unknown
      readonly isError: boolean
    }
  | FinishPart

/**
 * Arguments' JSON text parsed: `{}` for none, the text itself where it is not JSON (so that nothing is lost).
 *
 * @since 0.3.0
 */
export const parseArguments = (text: string): unknown => {
  if (text.trim() === "") return {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * The metadata part of a chunk or response (a `created` of 0 or less is no time).
 *
 * @since 0.3.0
 */
export const metadataOf = (chunk: {
  readonly id?: string | null | undefined
  readonly model?: string | null | undefined
  readonly created?: number | null | undefined
}): ResponseMetadata => ({
  type: "response-metadata",
  ...(chunk.id ? { id: chunk.id } : {}),
  ...(chunk.model ? { modelId: chunk.model } : {}),
  ...(typeof chunk.created === "number" && chunk.created > 0 ? { timestamp: new Date(chunk.created * 1000) } : {}),
})
