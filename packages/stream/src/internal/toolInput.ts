/** Parsing a finished tool call's argument text, as the Responses and Messages accumulators both do. */
import { ToolInputError } from "../StreamError.ts"
import { cutText } from "./codec.ts"
import { sentence } from "./sentence.ts"

/** Who the arguments belong to, for the error. */
export interface ToolCallRef {
  readonly callId: string | undefined
  readonly name: string | undefined
  readonly index: number
}

/**
 * The arguments of a finished call as JSON: an empty (or blank) text is a call without arguments, `{}`; text that
 * is not JSON throws `ToolInputError` naming the call.
 */
export const parseToolInput = (text: string, call: ToolCallRef): unknown => {
  if (text.trim().length === 0) return {}
  try {
    return JSON.parse(text)
  } catch (e) {
    const explanation = e instanceof Error ? e.message : String(e)
    const who = `${call.name === undefined ? "tool call" : `call of "${call.name}"`}${call.callId === undefined ? "" : ` (${call.callId})`}`
    throw new ToolInputError({
      reason: "MalformedJson",
      message:
        `The arguments of the ${who} at index ${call.index} are not JSON (${explanation}): ` +
        `${sentence(cutText(text).slice(0, 120))} The model wrote malformed arguments; ask again or repair them.`,
      callId: call.callId,
      name: call.name,
      index: call.index,
      text: cutText(text),
      explanation,
    })
  }
}
