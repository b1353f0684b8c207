/**
 * `LanguageModel`'s provider options -> the body of a Friendli chat request: the prompt's messages, the toolkit's
 * tools as JSON Schema functions (`Tool.getJsonSchema`), the tool choice, a JSON response format, and the layer's
 * fixed request fields (sampling, reasoning, …).
 */
import type { ChatCompletionRequest } from "@friendli-stream/core"
import type * as LanguageModel from "effect/ai/LanguageModel"
import * as Tool from "effect/ai/Tool"
import { toMessages } from "./messages.ts"

/** Request fields the layer adds to every request (any field of Friendli's chat request but the prompt's own). */
export type RequestFields = Partial<
  Omit<ChatCompletionRequest, "model" | "messages" | "tools" | "tool_choice" | "stream">
>

/** A built-in tool of the call: Friendli's type and the toolkit's name of it. */
export interface BuiltIn {
  readonly type: string
  readonly name: string
}

/** The body of one request, its built-in tools, and the parts of the prompt that could not be sent. */
export const chatRequest = (
  model: string,
  fields: RequestFields,
  options: LanguageModel.ProviderOptions,
): {
  readonly body: Omit<ChatCompletionRequest, "stream">
  readonly builtIns: ReadonlyArray<BuiltIn>
  readonly unsupported: ReadonlyArray<string>
} => {
  const { messages, unsupported } = toMessages(options.prompt)
  const choice = options.toolChoice
  const allowed = typeof choice === "object" && "oneOf" in choice ? new Set<string>(choice.oneOf) : undefined
  const tools = options.tools
    .filter((tool) => !Tool.isProviderDefined(tool) && (allowed === undefined || allowed.has(tool.name)))
    .map((tool) => ({
      type: "function" as const,
      function: {
        name: tool.name,
        ...(Tool.getDescription(tool) === undefined ? {} : { description: Tool.getDescription(tool) }),
        parameters: Tool.getJsonSchema(tool) as Record<string, unknown>,
      },
    }))
  const builtIns: Array<BuiltIn> = []
  const builtInTools: Array<Record<string, unknown>> = []
  for (const tool of options.tools) {
    if (!Tool.isProviderDefined(tool) || !tool.id.startsWith("friendli.")) continue
    const type = tool.providerName
    builtIns.push({ type, name: tool.name })
    const files = (tool.args as { readonly files?: ReadonlyArray<string> } | undefined)?.files
    builtInTools.push(type === "file:text" ? { type, files: [...(files ?? [])] } : { type })
  }
  const body: Record<string, unknown> = { ...fields, model, messages }
  if (tools.length > 0 || builtInTools.length > 0) {
    body.tools = [...tools, ...builtInTools]
    body.tool_choice =
      typeof choice === "string"
        ? choice
        : "tool" in choice
          ? { type: "function", function: { name: choice.tool } }
          : (choice.mode ?? "auto")
  }
  if (options.responseFormat.type === "json") {
    body.response_format = {
      type: "json_schema",
      json_schema: { schema: Tool.getJsonSchemaFromSchema(options.responseFormat.schema) as Record<string, unknown> },
    }
  }
  return { body: body as ChatCompletionRequest, builtIns, unsupported }
}
