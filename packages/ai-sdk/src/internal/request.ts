/**
 * The AI SDK's call options -> the body of a Friendli chat or completion request, with a warning for each
 * setting Friendli cannot honour. `response_format` is sent also when tools are given.
 */
import type { LanguageModelV4CallOptions, SharedV4Warning } from "@ai-sdk/provider"
import { builtInTypeOf } from "../Tools.ts"
import { type FriendliProviderOptions, REASONING_EFFORTS, readProviderOptions, requestFieldsOf } from "./options.ts"
import { toChatMessages, toCompletionPrompt } from "./prompt.ts"

/** A built-in tool of the call: Friendli's type and the name the AI SDK knows it by. */
export interface BuiltInOfCall {
  readonly type: string
  readonly name: string
}

/** A request ready to send. */
export interface PreparedRequest {
  readonly body: Record<string, unknown>
  readonly warnings: Array<SharedV4Warning>
  /** Built-in tools: the request goes to the tool-assisted endpoint. */
  readonly builtIns: ReadonlyArray<BuiltInOfCall>
  readonly providerOptions: FriendliProviderOptions
}

const dropUndefined = (o: Record<string, unknown>): Record<string, unknown> => {
  for (const key of Object.keys(o)) if (o[key] === undefined) delete o[key]
  return o
}

/** The fields every request has: sampling settings, the options of `providerOptions.friendli`. */
const commonFields = (model: string, options: LanguageModelV4CallOptions, warnings: Array<SharedV4Warning>) => {
  const providerOptions = readProviderOptions(options.providerOptions, warnings)
  const fields: Record<string, unknown> = {
    model,
    max_tokens: options.maxOutputTokens,
    temperature: options.temperature,
    top_p: options.topP,
    top_k: options.topK,
    frequency_penalty: options.frequencyPenalty,
    presence_penalty: options.presencePenalty,
    stop: options.stopSequences,
    seed: options.seed,
    stream_options: { include_usage: true },
  }
  const reasoning = options.reasoning
  if (reasoning !== undefined && reasoning !== "provider-default") {
    if ((REASONING_EFFORTS as ReadonlyArray<string>).includes(reasoning)) fields.reasoning_effort = reasoning
    else
      warnings.push({
        type: "unsupported",
        feature: `reasoning: "${reasoning}"`,
        details:
          "Friendli has no such effort; use providerOptions.friendli.chatTemplateKwargs (e.g. { enable_thinking: false }).",
      })
  }
  Object.assign(fields, dropUndefined(requestFieldsOf(providerOptions)))
  return { fields: dropUndefined(fields), providerOptions }
}

/** The body of a chat request. */
export const chatRequest = (model: string, options: LanguageModelV4CallOptions): PreparedRequest => {
  const warnings: Array<SharedV4Warning> = []
  const { fields, providerOptions } = commonFields(model, options, warnings)
  const body: Record<string, unknown> = { ...fields, messages: toChatMessages(options.prompt) }
  const format = options.responseFormat
  if (format?.type === "json") {
    body.response_format =
      format.schema === undefined
        ? { type: "json_object" }
        : { type: "json_schema", json_schema: { schema: format.schema } }
  }
  const tools: Array<Record<string, unknown>> = []
  const builtIns: Array<BuiltInOfCall> = []
  for (const tool of options.tools ?? []) {
    if (tool.type === "function") {
      tools.push({
        type: "function",
        function: dropUndefined({ name: tool.name, description: tool.description, parameters: tool.inputSchema }),
      })
      continue
    }
    const type = builtInTypeOf(tool.id)
    if (type === undefined) {
      warnings.push({
        type: "unsupported",
        feature: `provider tool ${tool.id}`,
        details: "Not a Friendli built-in tool; it was not sent.",
      })
      continue
    }
    tools.push(type === "file:text" ? { type, files: tool.args.files } : { type })
    builtIns.push({ type, name: tool.name })
  }
  if (tools.length > 0) body.tools = tools
  const choice = options.toolChoice
  if (choice !== undefined && tools.length > 0) {
    body.tool_choice = choice.type === "tool" ? { type: "function", function: { name: choice.toolName } } : choice.type
  }
  if (builtIns.length > 0) {
    if (providerOptions.resumeGeneration !== undefined) body.resume_generation = providerOptions.resumeGeneration
  } else if (providerOptions.resumeGeneration !== undefined) {
    warnings.push({
      type: "unsupported",
      feature: "providerOptions.friendli.resumeGeneration",
      details: "Only the tool-assisted chat (with built-in tools) takes resume_generation; it was not sent.",
    })
  }
  return { body, warnings, builtIns, providerOptions }
}

/** The body of a completion request. */
export const completionRequest = (model: string, options: LanguageModelV4CallOptions): PreparedRequest => {
  const warnings: Array<SharedV4Warning> = []
  const { fields, providerOptions } = commonFields(model, options, warnings)
  const body: Record<string, unknown> = { ...fields, prompt: toCompletionPrompt(options.prompt) }
  for (const key of [
    "reasoning_effort",
    "reasoning_budget",
    "include_reasoning",
    "parse_reasoning",
    "chat_template_kwargs",
    "parallel_tool_calls",
    "top_logprobs",
  ]) {
    if (key in body) {
      warnings.push({ type: "unsupported", feature: key, details: "Completions do not take it; it was not sent." })
      delete body[key]
    }
  }
  if (providerOptions.logprobs !== undefined && providerOptions.logprobs !== false) {
    body.logprobs = typeof providerOptions.logprobs === "number" ? providerOptions.logprobs : 1
  }
  if ((options.tools?.length ?? 0) > 0)
    warnings.push({
      type: "unsupported",
      feature: "tools",
      details: "Completions take no tools; use friendli.chat(model).",
    })
  if (options.responseFormat?.type === "json") {
    body.response_format =
      options.responseFormat.schema === undefined
        ? { type: "json_object" }
        : { type: "json_schema", json_schema: { schema: options.responseFormat.schema } }
  }
  return { body, warnings, builtIns: [], providerOptions }
}
