/**
 * The built-in tools of the tool-assisted chat: what the mock model does with each, and the `event: tool_status`
 * frames it streams for them (`STARTED`, `UPDATING`, `ENDED`; `ERRORED` when a failure is injected) before the answer.
 * Names and statuses are those of the generated `ToolStatusEvent` Schema, so a tool Friendli adds is a type error
 * here until the mock knows what it is asked.
 */
import type * as Core from "@friendli-stream/core"
import type { ResponseMeta } from "./completions.ts"
import type { Frame } from "./frames.ts"
import { mixSeeds, seeded } from "./prng.ts"
import { words } from "./tokens.ts"
import { callIdOf } from "./turn.ts"

/** A built-in tool's name (Friendli's eight). */
export type BuiltInTool = Core.ToolStatusEventEncoded["name"]

/** What each built-in tool is asked: an expression, code, a URL or a query. */
const ASKED: Readonly<Record<BuiltInTool, "expression" | "code" | "url" | "query">> = {
  "linkup:search": "query",
  "math:calculator": "expression",
  "math:statistics": "expression",
  "math:calendar": "query",
  "web:search": "query",
  "web:url": "url",
  "code:python-interpreter": "code",
  "file:text": "query",
}

/** What the frames depend on: the conversation's key and last user text, the response, an injected failure. */
export interface ToolStatusInput {
  readonly key: number
  readonly question: string
  readonly meta: ResponseMeta
  /** The first tool fails (`ERRORED`) instead of ending. */
  readonly toolError: boolean
}

/** The `tool_status` frames of the built-in tools a request offers, tool after tool. */
export const toolStatusFrames = (tools: ReadonlyArray<BuiltInTool>, input: ToolStatusInput): ReadonlyArray<Frame> =>
  tools.flatMap((name, k): Array<Frame> => {
    const key = mixSeeds(input.key, 0x7001, k)
    const random = seeded(key)
    const a = Math.floor(random() * 1000)
    const b = Math.floor(random() * 100)
    const asked = ASKED[name]
    const value =
      asked === "expression"
        ? `${a} * ${b}`
        : asked === "code"
          ? `print(${a} * ${b})`
          : asked === "url"
            ? `https://example.com/${words(random, 1)}`
            : input.question.slice(0, 60) || "mock query"
    const base = {
      tool_call_id: callIdOf(key),
      name,
      parameters: [{ name: asked, value }],
      files: null,
      message: null,
      timestamp: input.meta.created,
    }
    const status = (event: Core.ToolStatusEventEncoded): Frame => ({ kind: "data", event: "tool_status", data: event })
    const started = status({ ...base, status: "STARTED", result: null, error: null })
    if (input.toolError && k === 0) {
      const error = { type: "mock_tool_error", msg: `Injected failure of ${name}` }
      return [started, status({ ...base, status: "ERRORED", result: null, error })]
    }
    const result = JSON.stringify({
      result: asked === "expression" || asked === "code" ? `${a * b}` : `mock result of ${name} for '${value}'`,
    })
    return [
      started,
      status({ ...base, status: "UPDATING", result: null, error: null }),
      status({ ...base, status: "ENDED", result, error: null }),
    ]
  })
