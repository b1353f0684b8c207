/**
 * Friendli's built-in tools as the AI SDK's provider-executed tools: put them in `tools` (any key) and Friendli
 * runs them on its side (the request goes to the tool-assisted chat endpoint, serverless only). Each run arrives
 * as a `tool-call` part (its parameters as input) and a `tool-result` part (its result, or `isError` with
 * Friendli's error when it failed).
 *
 * @since 0.2.0
 */

import { ToolStatusEvent } from "@friendli-stream/core"

/**
 * The type of each built-in tool, as Friendli names it (the names of Friendli's `tool_status` events).
 *
 * @since 0.2.0
 */
export type BuiltInToolType = ToolStatusEvent["name"]

/**
 * A Standard Schema (https://standardschema.dev) that takes any object: a built-in tool's input is whatever
 * parameters Friendli reports for its run.
 *
 * @since 0.2.0
 */
export interface AnyObjectSchema {
  /** @since 0.2.0 */
  readonly "~standard": {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => { readonly value: Record<string, unknown> }
    readonly jsonSchema: {
      readonly input: (options: unknown) => Record<string, unknown>
      readonly output: (options: unknown) => Record<string, unknown>
    }
  }
}

/**
 * A built-in tool, as the AI SDK's `tools` take it.
 *
 * @since 0.2.0
 */
export interface FriendliBuiltInTool {
  /** @since 0.2.0 */
  readonly type: "provider"
  /** `friendli.<built-in type>`, e.g. `friendli.web:search`. @since 0.2.0 */
  readonly id: `friendli.${BuiltInToolType}`
  /** Arguments of the tool (`files` for `file:text`). @since 0.2.0 */
  readonly args: Record<string, unknown>
  /** Friendli runs it. @since 0.2.0 */
  readonly isProviderExecuted: true
  /** @since 0.2.0 */
  readonly inputSchema: AnyObjectSchema
}

const anyObject: AnyObjectSchema = {
  "~standard": {
    version: 1,
    vendor: "friendli-stream",
    validate: (value) => ({
      value: typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {},
    }),
    jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) },
  },
}

const builtIn =
  (type: BuiltInToolType) =>
  (args: Record<string, unknown> = {}): FriendliBuiltInTool => ({
    type: "provider",
    id: `friendli.${type}`,
    args,
    isProviderExecuted: true,
    inputSchema: anyObject,
  })

/**
 * The built-in type of a provider tool id (`friendli.web:search` -> `web:search`), or `undefined`.
 *
 * @since 0.2.0
 */
export const builtInTypeOf = (id: string): BuiltInToolType | undefined =>
  id.startsWith("friendli.") && (BUILT_IN_TYPES as ReadonlyArray<string>).includes(id.slice(9))
    ? (id.slice(9) as BuiltInToolType)
    : undefined

/**
 * Every built-in tool type, from the generated `ToolStatusEvent` Schema of Friendli's description.
 *
 * @since 0.2.0
 */
export const BUILT_IN_TYPES: ReadonlyArray<BuiltInToolType> = ToolStatusEvent.schema.fields.name.literals

/**
 * The built-in tools: `friendli.tools.webSearch()`, …; `fileText({ files })` takes the ids of uploaded files.
 *
 * @example
 * const result = streamText({
 *   model: friendli("meta-llama-3.1-8b-instruct"),
 *   tools: { calculator: friendli.tools.calculator(), search: friendli.tools.webSearch() },
 *   prompt: "What is 150 * 16?",
 * })
 *
 * @since 0.2.0
 */
export const tools = {
  /** `math:calculator`. @since 0.2.0 */
  calculator: builtIn("math:calculator"),
  /** `math:statistics`. @since 0.2.0 */
  statistics: builtIn("math:statistics"),
  /** `math:calendar`. @since 0.2.0 */
  calendar: builtIn("math:calendar"),
  /** `web:search`. @since 0.2.0 */
  webSearch: builtIn("web:search"),
  /** `web:url`. @since 0.2.0 */
  webUrl: builtIn("web:url"),
  /** `code:python-interpreter`. @since 0.2.0 */
  pythonInterpreter: builtIn("code:python-interpreter"),
  /** `linkup:search`. @since 0.2.0 */
  linkupSearch: builtIn("linkup:search"),
  /** `file:text` over the files given. @since 0.2.0 */
  fileText: (args: { readonly files: ReadonlyArray<string> }): FriendliBuiltInTool =>
    builtIn("file:text")({ files: [...args.files] }),
} as const
