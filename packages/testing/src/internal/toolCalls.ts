/**
 * A function call the mock model makes, and how Friendli's servers stream one (the spec's `StreamedToolCallResult`,
 * whose `id` and `function.name` are nullable): the first delta of a call names it (`id`, `type`, `function.name`,
 * `arguments: ""`); every following delta carries a piece of the arguments with `id: null` and
 * `function.name: null`, and `type: "function"` all the same (the spec requires `type`, `index` and `function`).
 */
import type { Json } from "./validate.ts"

/** One call: its id, the function's name, its arguments (JSON text) and the pieces they are streamed in. */
export interface ToolCallPlan {
  readonly id: string
  readonly name: string
  readonly arguments: string
  readonly fragments: ReadonlyArray<string>
}

/** The `tool_calls` entries that stream call number `index` of a choice, one per delta, in order. */
export const toolCallDeltas = (call: ToolCallPlan, index: number): ReadonlyArray<Json> => [
  { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
  ...call.fragments.map((piece) => ({ index, id: null, type: "function", function: { name: null, arguments: piece } })),
]

/** The call as a whole, in a non-streamed message's `tool_calls`. */
export const toolCallMessage = (call: ToolCallPlan): Json => ({
  id: call.id,
  type: "function",
  function: { name: call.name, arguments: call.arguments },
})
