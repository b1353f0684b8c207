/**
 * A function call the mock model makes, and how Friendli's servers stream one (the spec's `StreamedToolCallResult`,
 * whose `id` and `function.name` are nullable): the first delta of a call names it (`id`, `type`, `function.name`,
 * `arguments: ""`); every following delta carries a piece of the arguments with `id: null` and
 * `function.name: null`, and `type: "function"` all the same (the spec requires `type`, `index` and `function`).
 */
import type * as Core from "@friendli-stream/core"
import type { TurnCall } from "./turn.ts"

/** The `tool_calls` entries that stream call number `index` of a choice, one per delta, in order. */
export const toolCallDeltas = (call: TurnCall, index: number): ReadonlyArray<Core.ToolCallDeltaEncoded> => [
  { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
  ...call.fragments.map((piece) => ({
    index,
    id: null,
    type: "function" as const,
    function: { name: null, arguments: piece },
  })),
]

/** The call as a whole, in a non-streamed message's `tool_calls`. */
export const toolCallMessage = (call: TurnCall): Core.ToolCallEncoded => ({
  id: call.id,
  type: "function",
  function: { name: call.name, arguments: call.arguments },
})
