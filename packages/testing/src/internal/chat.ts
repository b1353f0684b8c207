/**
 * `POST /v1/chat/completions` and the tool-assisted `POST /tools/v1/chat/completions`: reads the request, decides
 * between text and tool calls, and produces the streamed frames and the non-streamed body.
 *
 * Tool-call rule (deterministic, so tests can rely on it): with `tool_choice` `"auto"` (the default when `tools` are
 * given) the model calls every function whose name appears in the last user message; `"required"` does the same but
 * falls back to the first function; `{"type":"function","function":{"name"}}` calls that function; `"none"` and a
 * conversation whose last message is a `tool` result answer with text. `parallel_tool_calls: false` keeps one call.
 * Calls are streamed as Friendli streams them (see `toolCalls.ts`). A request that asks for reasoning gets, before
 * its calls, the reasoning and a short preface in `content` ("Let me look that up with get_weather."); these count
 * towards `max_tokens`, and when they reach it the choice ends with `length` and no call. Arguments are never cut.
 */

import * as Core from "@friendli-stream/core"
import { chunkOf, type ResponseMeta } from "./completions.ts"
import type { ValidationIssue } from "./errors.ts"
import type { Frame } from "./frames.ts"
import { mixSeeds, seeded } from "./prng.ts"
import { reasoningLength, reasoningText, toolPreface } from "./replies.ts"
import { sample } from "./schema-sample.ts"
import { fragment, type GeneratedToken, type Generation, generate, pieces, tokenize } from "./tokens.ts"
import { toolCallDeltas, toolCallMessage } from "./toolCalls.ts"
import { type BuiltInTool, toolStatusFrames } from "./toolStatus.ts"
import {
  chooseFunctions,
  keyOf,
  planCalls,
  type TurnCall,
  type TurnFunction,
  type TurnToolChoice,
  textOf,
} from "./turn.ts"
import { Checker, type GenerationParams, MAX_LOGPROBS, readGeneration } from "./validate.ts"

type ResponseFormat =
  | { readonly type: "text" }
  | { readonly type: "regex" }
  | { readonly type: "json_object"; readonly schema: unknown }

/**
 * What a request asks of the model's reasoning (Friendli's reasoning fields): how long it thinks, and whether its
 * reasoning is parsed out of the answer into `reasoning_content` (`parse_reasoning`, default true here) and sent
 * (`include_reasoning`, default true). Unparsed, the reasoning is part of `content`, between `<think>` tags.
 */
export interface ReasoningRequest {
  /** Sentences of reasoning (from `reasoning_effort`; `medium` when reasoning is asked for without one). */
  readonly sentences: number
  /** At most this many reasoning tokens (`reasoning_budget`). */
  readonly budget: number | undefined
  readonly parse: boolean
  readonly include: boolean
}

/** A valid chat request. */
export interface ChatRequest extends GenerationParams {
  /** Present when the request asks for reasoning. */
  readonly reasoning: ReasoningRequest | undefined
  readonly toolsApi: boolean
  readonly messages: ReadonlyArray<Core.Message>
  readonly functions: ReadonlyArray<TurnFunction>
  readonly builtins: ReadonlyArray<BuiltInTool>
  readonly toolChoice: TurnToolChoice
  readonly parallelToolCalls: boolean
  readonly logprobs: boolean
  readonly topLogprobs: number
  readonly responseFormat: ResponseFormat
}

/** A chat request as both Schemas decode it (the tool-assisted one's tools include the built-in ones). */
type ChatFields = Omit<Core.ChatCompletionRequest, "tools"> & {
  readonly tools?: ReadonlyArray<Core.ToolAssistedChatTool> | null | undefined
}

/**
 * The tools: functions and, on the tool-assisted API, the built-in tools (which the Schema of a plain chat refuses);
 * at most 128 (the tool-assisted Schema says so; the mock says the same of a plain chat).
 */
const readTools = (c: Checker<ChatFields>) => {
  const tools = c.request.tools ?? []
  if (tools.length > 128) c.issue(["tools"], "List should have at most 128 items", "too_long")
  const functions: Array<TurnFunction> = []
  const builtins: Array<BuiltInTool> = []
  for (const t of tools) {
    if (t.type === "function") functions.push({ name: t.function.name, parameters: t.function.parameters })
    else builtins.push(t.type)
  }
  return { functions, builtins }
}

const readToolChoice = (c: Checker<ChatFields>, functions: ReadonlyArray<TurnFunction>): TurnToolChoice => {
  const v = c.request.tool_choice
  if (v === undefined) return functions.length > 0 || (c.request.tools ?? []).length > 0 ? "auto" : "none"
  if (typeof v !== "string") {
    const name = v.function.name
    if (!functions.some((f) => f.name === name)) {
      c.issue(["tool_choice", "function", "name"], `No function named '${name}' in tools`, "value_error", name)
    }
    return { name }
  }
  if (v === "none" || v === "auto" || v === "required") return v
  c.issue(["tool_choice"], `Input should be 'none', 'auto', 'required' or {"type": "function", …}`, "value_error", v)
  return "none"
}

/** The format of the answer; `json_object` may carry the JSON Schema as a string (`schema`), as Friendli takes it. */
const readResponseFormat = (c: Checker<ChatFields>): ResponseFormat => {
  const v = c.request.response_format ?? undefined
  if (v === undefined || v.type === "text") return { type: "text" }
  if (v.type === "regex") return { type: "regex" }
  if (v.type === "json_schema") return { type: "json_object", schema: v.json_schema.schema }
  const text = (v as { readonly schema?: unknown }).schema
  if (typeof text !== "string") return { type: "json_object", schema: undefined }
  try {
    return { type: "json_object", schema: JSON.parse(text) }
  } catch {
    c.issue(["response_format", "schema"], "schema should be a serialized JSON schema", "json_invalid", text)
    return { type: "json_object", schema: undefined }
  }
}

/**
 * Reasoning is asked for by `reasoning_effort`, `reasoning_budget`, `parse_reasoning: true`, `include_reasoning: true`
 * or `chat_template_kwargs.enable_thinking: true`.
 */
const readReasoning = (c: Checker<ChatFields>): ReasoningRequest | undefined => {
  const req = c.request
  const effort = req.reasoning_effort ?? undefined
  const budget = req.reasoning_budget ?? undefined
  const parse = req.parse_reasoning ?? undefined
  const include = req.include_reasoning ?? undefined
  const thinking = req.chat_template_kwargs?.enable_thinking === true
  if (effort === undefined && budget === undefined && parse !== true && include !== true && !thinking) return undefined
  return { sentences: reasoningLength(effort), budget, parse: parse ?? true, include: include ?? true }
}

/** Reads and validates a chat completions body against `ChatCompletionRequest` (tool-assisted: its own Schema). */
export const readChat = (
  body: unknown,
  model: string,
  toolsApi: boolean,
):
  | { readonly ok: true; readonly request: ChatRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const c = new Checker<ChatFields>(
    body,
    toolsApi ? Core.ToolAssistedChatCompletionRequest : Core.ChatCompletionRequest,
  )
  const gen = readGeneration(c, model)
  const messages = c.request.messages ?? []
  if (c.request.messages !== undefined && messages.length === 0) {
    c.issue(["messages"], "List should have at least 1 item", "too_short")
  }
  const { functions, builtins } = readTools(c)
  const toolChoice = readToolChoice(c, functions)
  if (toolChoice === "required" && functions.length === 0 && builtins.length === 0) {
    c.issue(["tool_choice"], "tool_choice 'required' needs at least one tool", "value_error", "required")
  }
  const logprobs = c.request.logprobs ?? false
  const topLogprobs = c.atMost(
    "top_logprobs",
    c.request.top_logprobs,
    MAX_LOGPROBS,
    "the most alternatives the mock model knows",
  )
  if (topLogprobs !== undefined && !logprobs) {
    c.issue(["top_logprobs"], "logprobs must be set to true if top_logprobs is used", "value_error", topLogprobs)
  }
  const responseFormat = readResponseFormat(c)
  const reasoning = readReasoning(c)
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  return {
    ok: true,
    request: {
      ...gen,
      toolsApi,
      messages,
      functions,
      builtins,
      toolChoice,
      parallelToolCalls: c.request.parallel_tool_calls ?? true,
      logprobs,
      topLogprobs: topLogprobs ?? 0,
      responseFormat,
      reasoning,
    },
  }
}

/**
 * A choice: its generation (reasoning, then the answer's text), and for function calls the calls that follow it (a
 * tools choice's text is empty, or its preface when reasoning was asked for).
 */
type ChoicePlan =
  | { readonly kind: "text"; readonly gen: Generation }
  | { readonly kind: "tools"; readonly gen: Generation; readonly calls: ReadonlyArray<TurnCall> }

const promptKeyOf = (req: ChatRequest): number => keyOf(req.messages)

const lastUserText = (req: ChatRequest): string => {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]!
    if (m.role === "user") return textOf(m.content)
  }
  return ""
}

/** What makes choices differ: an explicit seed alone, or else the choice index. */
const choiceKey = (seed: number | undefined, index: number): [number, number] =>
  seed === undefined ? [0, index] : [1, seed]

const plans = (req: ChatRequest): ReadonlyArray<ChoicePlan> => {
  const promptKey = promptKeyOf(req)
  const functions = chooseFunctions({
    functions: req.functions,
    toolChoice: req.toolChoice,
    promptText: lastUserText(req),
    parallel: req.parallelToolCalls,
    afterToolResult: req.messages.at(-1)?.role === "tool",
  })
  return Array.from({ length: req.n }, (_, index): ChoicePlan => {
    const seed = req.seeds?.[index]
    const key = mixSeeds(promptKey, ...choiceKey(seed, index))
    const thought =
      req.reasoning === undefined ? [] : pieces(reasoningText(lastUserText(req), req.reasoning.sentences, key))
    const common = {
      promptKey,
      promptText: lastUserText(req),
      chat: true,
      reasoning: req.reasoning?.budget === undefined ? thought : thought.slice(0, req.reasoning.budget),
      seed,
      index,
      maxTokens: req.maxTokens,
      minTokens: req.minTokens,
      ignoreEos: req.ignoreEos,
      stop: req.stop,
    }
    if (functions.length > 0) {
      // a reasoning model thinks, says what it is about to do, then calls; another one calls straight away
      const names = functions.map((f) => f.name)
      const preface = req.reasoning === undefined ? [] : pieces(toolPreface(names, key))
      const gen = generate({ ...common, minTokens: 0, ignoreEos: false, stop: [], script: preface })
      if (gen.finishReason === "length") return { kind: "text", gen }
      return { kind: "tools", gen, calls: planCalls(functions, key) }
    }
    if (req.responseFormat.type === "json_object") {
      const schema = req.responseFormat.schema ?? { type: "object", properties: { answer: { type: "string" } } }
      const json = JSON.stringify(sample(schema, seeded(key)))
      return { kind: "text", gen: generate({ ...common, script: fragment(json, key) }) }
    }
    return { kind: "text", gen: generate(common) }
  })
}

const promptTokens = (req: ChatRequest): number => {
  let count = 0
  for (const m of req.messages) count += 3 + tokenize(textOf(m.content)).length
  if (req.functions.length + req.builtins.length > 0)
    count += tokenize(JSON.stringify(req.functions) + req.builtins.join(" ")).length
  return count + 3
}

const completionTokens = (plan: ChoicePlan): number =>
  plan.gen.reasoning.length +
  plan.gen.tokens.length +
  (plan.kind === "tools" ? plan.calls.reduce((s, c) => s + c.fragments.length, 0) : 0)

/** The tags around an unparsed reasoning (`parse_reasoning: false`): it stays in `content`. */
const THINK_OPEN = "<think>\n"
const THINK_CLOSE = "\n</think>\n\n"

/** How a choice's reasoning is sent: as `reasoning_content`, inside `content`, or not at all. */
const reasoningMode = (req: ChatRequest, plan: ChoicePlan): "parsed" | "inline" | "none" =>
  req.reasoning === undefined || plan.gen.reasoning.length === 0
    ? "none"
    : !req.reasoning.parse
      ? "inline"
      : req.reasoning.include
        ? "parsed"
        : "none"

const usageOf = (req: ChatRequest, ps: ReadonlyArray<ChoicePlan>): Core.UsageEncoded => {
  const prompt = promptTokens(req)
  const completion = ps.reduce((s, p) => s + completionTokens(p), 0)
  const reasoning = ps.reduce((s, p) => s + p.gen.reasoning.length, 0)
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(reasoning > 0 ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
  }
}

const encoder = new TextEncoder()

const tokenLogprob = (t: GeneratedToken, top: number): Core.TokenLogprobEncoded => ({
  token: t.text,
  logprob: t.logprob,
  bytes: Array.from(encoder.encode(t.text)),
  top_logprobs: t.top
    .slice(0, top)
    .map((e) => ({ token: e.text, logprob: e.logprob, bytes: Array.from(encoder.encode(e.text)) })),
})

const finishOf = (plan: ChoicePlan): "stop" | "length" | "tool_calls" =>
  plan.kind === "tools" ? "tool_calls" : plan.gen.finishReason

/**
 * The text of a choice as deltas, in order: its reasoning (as `reasoning_content`, or in `content` between `<think>`
 * tags, or left out), then its answer (or a tools choice's preface) as `content`, with the tokens for logprobs.
 */
const textDeltas = (
  req: ChatRequest,
  plan: ChoicePlan,
): ReadonlyArray<{ text: string; field: "content" | "reasoning_content"; token: GeneratedToken | undefined }> => {
  const mode = reasoningMode(req, plan)
  const thought = mode === "none" ? [] : plan.gen.reasoning.map((t) => t.text)
  const reasoning =
    mode === "inline"
      ? [THINK_OPEN, ...thought, THINK_CLOSE].map((text) => ({ text, field: "content" as const, token: undefined }))
      : thought.map((text) => ({ text, field: "reasoning_content" as const, token: undefined }))
  return [...reasoning, ...plan.gen.tokens.map((t) => ({ text: t.text, field: "content" as const, token: t }))]
}

/** The streamed events of a chat request, `[DONE]` included. */
export const chatFrames = (req: ChatRequest, meta: ResponseMeta, toolError: boolean): ReadonlyArray<Frame> => {
  const ps = plans(req)
  const frames: Array<Frame> =
    req.toolChoice === "none"
      ? []
      : [...toolStatusFrames(req.builtins, { key: promptKeyOf(req), question: lastUserText(req), meta, toolError })]
  const chunk = (choices: ReadonlyArray<Core.ChatCompletionChunkChoiceEncoded>, usage?: Core.UsageEncoded): Frame => {
    const data: Core.ChatCompletionChunkEncoded = { ...chunkOf(meta, usage), object: "chat.completion.chunk", choices }
    return { kind: "data", data }
  }
  // each choice as a list of deltas, then interleave the choices step by step
  const perChoice = ps.map((plan, index): Array<Frame> => {
    const texts = textDeltas(req, plan)
    // the role comes with the choice's first delta only
    const deltas: Array<{ delta: Core.ChatCompletionDeltaEncoded; token: GeneratedToken | undefined }> = [
      ...texts.map(({ text, field, token }) => ({ delta: { [field]: text }, token })),
      ...(plan.kind === "tools"
        ? plan.calls.flatMap((call, j) =>
            toolCallDeltas(call, j).map((t) => ({ delta: { tool_calls: [t] }, token: undefined })),
          )
        : []),
    ]
    if (deltas.length === 0) deltas.push({ delta: { content: "" }, token: undefined })
    const out = deltas.map(({ delta, token }, i) =>
      chunk([
        {
          index,
          delta: i === 0 ? { role: "assistant", ...delta } : delta,
          finish_reason: null,
          logprobs: req.logprobs && token !== undefined ? { content: [tokenLogprob(token, req.topLogprobs)] } : null,
        },
      ]),
    )
    out.push(chunk([{ index, delta: {}, finish_reason: finishOf(plan), logprobs: null }]))
    return out
  })
  const longest = Math.max(...perChoice.map((f) => f.length))
  for (let step = 0; step < longest; step++) {
    for (const list of perChoice) {
      const frame = list[step]
      if (frame !== undefined) frames.push(frame)
    }
  }
  if (req.includeUsage) frames.push(chunk([], usageOf(req, ps)))
  frames.push({ kind: "done" })
  return frames
}

/** A choice's message without its calls: content (a tools choice without text has none) and reasoning. */
const messageOf = (req: ChatRequest, plan: ChoicePlan): Core.ChatCompletionChoiceEncoded["message"] => {
  const thought = plan.gen.reasoning.map((t) => t.text).join("")
  const answer = plan.kind === "tools" && plan.gen.text === "" ? null : plan.gen.text
  switch (reasoningMode(req, plan)) {
    case "parsed":
      return { role: "assistant", content: answer, reasoning_content: thought }
    case "inline":
      return { role: "assistant", content: `${THINK_OPEN}${thought}${THINK_CLOSE}${answer ?? ""}` }
    case "none":
      return { role: "assistant", content: answer }
  }
}

/** The non-streamed response of a chat request: the same message as the stream, in one body. */
export const chatBody = (req: ChatRequest, meta: ResponseMeta): Core.ChatCompletionResponseEncoded => {
  const ps = plans(req)
  return {
    id: meta.id,
    model: meta.model,
    object: "chat.completion",
    choices: ps.map((plan, index) => ({
      index,
      message:
        plan.kind === "text"
          ? messageOf(req, plan)
          : { ...messageOf(req, plan), tool_calls: plan.calls.map(toolCallMessage) },
      finish_reason: finishOf(plan),
      logprobs:
        req.logprobs && (plan.kind === "text" || plan.gen.tokens.length > 0)
          ? { content: plan.gen.tokens.map((t) => tokenLogprob(t, req.topLogprobs)) }
          : null,
    })),
    usage: usageOf(req, ps),
    created: meta.created,
  }
}
