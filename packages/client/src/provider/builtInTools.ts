/**
 * A built-in tool's `tool_status` events (the tool-assisted API) -> neutral parts: a provider-executed `tool-call`
 * when it starts, a `tool-result` when it ends or fails.
 */
import type { Part } from "./parts.ts"

/**
 * A built-in tool's `tool_status` event, as the parts are read from it.
 *
 * @since 0.3.0
 */
export interface ToolStatusLike {
  readonly tool_call_id: string
  readonly name: string
  readonly status: string
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly result?: string | null | undefined
  readonly error?: { readonly type: string; readonly msg: string } | null | undefined
}

/**
 * A built-in tool's result parsed: JSON where it is JSON, its text where not, `null` when it sent none.
 *
 * @since 0.3.0
 */
export const parseResult = (text: string | null | undefined): unknown => {
  if (text === null || text === undefined) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * The parts of a built-in tool's status: a provider-executed `tool-call` when it starts, a `tool-result` when it
 * ends or fails, none for the steps between. `names` maps Friendli's tool type to the caller's name of it.
 *
 * @since 0.3.0
 */
export const toolStatusParts = (status: ToolStatusLike, names: ReadonlyMap<string, string>): Array<Part> => {
  const id = status.tool_call_id
  const name = names.get(status.name) ?? status.name
  switch (status.status) {
    case "STARTED": {
      const input = JSON.stringify(Object.fromEntries(status.parameters.map((p) => [p.name, p.value])))
      return [{ type: "tool-call", id, name, input, providerExecuted: true }]
    }
    case "ENDED":
      return [{ type: "tool-result", id, name, result: parseResult(status.result), isError: false }]
    case "ERRORED": {
      const result = status.error ? { type: status.error.type, message: status.error.msg } : "The tool failed."
      return [{ type: "tool-result", id, name, result, isError: true }]
    }
    default:
      return []
  }
}
