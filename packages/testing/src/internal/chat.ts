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

import { ChatCompletionRequest, ToolAssistedChatCompletionRequest } from "@friendli-stream/core"
import type { ResponseMeta } from "./completions.ts"
import type { ValidationIssue } from "./errors.ts"
import { hashString, mixSeeds, seeded } from "./prng.ts"
import { reasoningLength, reasoningText, toolPreface } from "./replies.ts"
import { sample } from "./schema-sample.ts"
import type { Frame } from "./sse.ts"
import { fragment, type GeneratedToken, type Generation, generate, pieces, tokenize, words } from "./tokens.ts"
import { type ToolCallPlan, toolCallDeltas, toolCallMessage } from "./toolCalls.ts"
import { Checker, type GenerationParams, isObject, type Json, MAX_LOGPROBS, readGeneration } from "./validate.ts"

/** The built-in tools of the tool-assisted API. */
export const BUILTIN_TOOLS = [
  "math:calculator",
  "math:statistics",
  "math:calendar",
  "web:search",
  "web:url",
  "code:python-interpreter",
  "file:text",
] as const

interface FunctionTool {
  readonly name: string
  readonly parameters: unknown
}

type ToolChoice = "none" | "auto" | "required" | { readonly name: string }

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
  readonly messages: ReadonlyArray<Json>
  readonly functions: ReadonlyArray<FunctionTool>
  readonly builtins: ReadonlyArray<string>
  readonly toolChoice: ToolChoice
  readonly parallelToolCalls: boolean
  readonly logprobs: boolean
  readonly topLogprobs: number
  readonly responseFormat: ResponseFormat
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/

/** The mock's rule on messages the Schema accepted: at least one. */
const readMessages = (c: Checker): ReadonlyArray<Json> => {
  const messages = c.array("messages") ?? []
  if (c.value("messages") !== undefined && messages.length === 0) {
    c.issue(["messages"], "List should have at least 1 item", "too_short")
  }
  return messages.filter(isObject)
}

/**
 * The tools: functions (a name of at most 64 of a-z, A-Z, 0-9, `_` and `-`, as Friendli's description says) and, on
 * the tool-assisted API, built-in tools (`file:text` with its `files`); at most 128.
 */
const readTools = (c: Checker, toolsApi: boolean): { functions: Array<FunctionTool>; builtins: Array<string> } => {
  const functions: Array<FunctionTool> = []
  const builtins: Array<string> = []
  const tools = c.array("tools")
  if (tools === undefined) return { functions, builtins }
  if (tools.length > 128) c.issue(["tools"], "List should have at most 128 items", "too_long")
  tools.forEach((t, i) => {
    if (!isObject(t)) return
    if (t.type === "function" && isObject(t.function)) {
      const f = t.function
      if (typeof f.name !== "string" || !NAME.test(f.name)) {
        c.issue(
          ["tools", i, "function", "name"],
          "Must be a-z, A-Z, 0-9, underscores or dashes, at most 64",
          "string_pattern_mismatch",
          f.name,
        )
        return
      }
      functions.push({ name: f.name, parameters: f.parameters ?? { type: "object", properties: {} } })
    } else if (toolsApi && typeof t.type === "string" && (BUILTIN_TOOLS as ReadonlyArray<string>).includes(t.type)) {
      if (t.type === "file:text" && !Array.isArray(t.files)) {
        c.issue(["tools", i, "files"], "Field required", "missing")
        return
      }
      builtins.push(t.type)
    }
  })
  return { functions, builtins }
}

const readToolChoice = (c: Checker, functions: ReadonlyArray<FunctionTool>, hasTools: boolean): ToolChoice => {
  const v = c.value("tool_choice")
  if (v === undefined) return hasTools ? "auto" : "none"
  if (v === "none" || v === "auto" || v === "required") return v
  if (isObject(v) && isObject(v.function) && typeof v.function.name === "string") {
    const name = v.function.name
    if (!functions.some((f) => f.name === name)) {
      c.issue(["tool_choice", "function", "name"], `No function named '${name}' in tools`, "value_error", name)
    }
    return { name }
  }
  c.issue(["tool_choice"], `Input should be 'none', 'auto', 'required' or {"type": "function", …}`, "value_error", v)
  return "none"
}

const readResponseFormat = (c: Checker): ResponseFormat => {
  const v = c.object("response_format")
  if (v === undefined || v.type === "text") return { type: "text" }
  if (v.type === "regex") {
    if (typeof v.schema !== "string") {
      c.issue(["response_format", "schema"], "Field required: a regex pattern", "missing")
    }
    return { type: "regex" }
  }
  let schema: unknown
  if (typeof v.schema === "string") {
    try {
      schema = JSON.parse(v.schema)
    } catch {
      c.issue(["response_format", "schema"], "schema should be a serialized JSON schema", "json_invalid", v.schema)
    }
  } else if (isObject(v.json_schema)) schema = v.json_schema.schema
  return { type: "json_object", schema }
}

/** The reasoning efforts the mock model knows (the Schema, once it types the field, says the same). */
const EFFORTS = ["minimal", "low", "medium", "high", "xhigh", "max", "ultracode"]

/**
 * Reasoning is asked for by `reasoning_effort`, `reasoning_budget`, `parse_reasoning: true`, `include_reasoning: true`
 * or `chat_template_kwargs.enable_thinking: true`.
 */
const readReasoning = (c: Checker): ReasoningRequest | undefined => {
  const effort = c.string("reasoning_effort")
  if (effort !== undefined && !EFFORTS.includes(effort)) {
    c.issue(["reasoning_effort"], `Input should be ${EFFORTS.map((x) => `'${x}'`).join(", ")}`, "enum", effort)
  }
  const budget = c.number("reasoning_budget")
  const parse = c.boolean("parse_reasoning")
  const include = c.boolean("include_reasoning")
  const thinking = c.object("chat_template_kwargs")?.enable_thinking === true
  if (effort === undefined && budget === undefined && parse !== true && include !== true && !thinking) return undefined
  return { sentences: reasoningLength(effort), budget, parse: parse ?? true, include: include ?? true }
}

/** Reads and validates a chat completions body against `ChatCompletionRequest` (tool-assisted: its own Schema). */
export const readChat = (
  body: Json,
  model: string,
  toolsApi: boolean,
):
  | { readonly ok: true; readonly request: ChatRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const c = new Checker(body, toolsApi ? ToolAssistedChatCompletionRequest : ChatCompletionRequest)
  const gen = readGeneration(c, model)
  const messages = readMessages(c)
  const { functions, builtins } = readTools(c, toolsApi)
  const toolChoice = readToolChoice(c, functions, functions.length + builtins.length > 0)
  if (toolChoice === "required" && functions.length === 0 && builtins.length === 0) {
    c.issue(["tool_choice"], "tool_choice 'required' needs at least one tool", "value_error", "required")
  }
  const parallelToolCalls = c.boolean("parallel_tool_calls") ?? true
  const logprobs = c.boolean("logprobs") ?? false
  const topLogprobs = c.atMost("top_logprobs", MAX_LOGPROBS, "the most alternatives the mock model knows")
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
      parallelToolCalls,
      logprobs,
      topLogprobs: topLogprobs ?? 0,
      responseFormat,
      reasoning,
    },
  }
}

const textOf = (content: unknown): string => {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join(" ")
  }
  return ""
}

/**
 * A choice: its generation (reasoning, then the answer's text), and for function calls the calls that follow it (a
 * tools choice's text is empty, or its preface when reasoning was asked for).
 */
type ChoicePlan =
  | { readonly kind: "text"; readonly gen: Generation }
  | { readonly kind: "tools"; readonly gen: Generation; readonly calls: ReadonlyArray<ToolCallPlan> }

const hex = (n: number): string => n.toString(16).padStart(8, "0")

const promptKeyOf = (req: ChatRequest): number => hashString(JSON.stringify(req.messages))

const lastUserText = (req: ChatRequest): string => {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]!
    if (m.role === "user") return textOf(m.content)
  }
  return ""
}

const chosenFunctions = (req: ChatRequest): ReadonlyArray<FunctionTool> => {
  if (req.functions.length === 0 || req.toolChoice === "none") return []
  if (req.messages[req.messages.length - 1]?.role === "tool") return []
  let chosen: ReadonlyArray<FunctionTool>
  if (typeof req.toolChoice === "object") {
    const name = req.toolChoice.name
    chosen = req.functions.filter((f) => f.name === name)
  } else {
    const text = lastUserText(req).toLowerCase()
    chosen = req.functions.filter((f) => text.includes(f.name.toLowerCase()))
    if (chosen.length === 0 && req.toolChoice === "required") chosen = req.functions.slice(0, 1)
  }
  return req.parallelToolCalls ? chosen : chosen.slice(0, 1)
}

/** What makes choices differ: an explicit seed alone, or else the choice index. */
const choiceKey = (seed: number | undefined, index: number): [number, number] =>
  seed === undefined ? [0, index] : [1, seed]

const plans = (req: ChatRequest): ReadonlyArray<ChoicePlan> => {
  const promptKey = promptKeyOf(req)
  const functions = chosenFunctions(req)
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
      const preface =
        req.reasoning === undefined
          ? []
          : pieces(
              toolPreface(
                functions.map((f) => f.name),
                key,
              ),
            )
      const gen = generate({ ...common, minTokens: 0, ignoreEos: false, stop: [], script: preface })
      if (gen.finishReason === "length") return { kind: "text", gen }
      return {
        kind: "tools",
        gen,
        calls: functions.map((f, j) => {
          const callKey = mixSeeds(promptKey, ...choiceKey(seed, index), j)
          const args = JSON.stringify(sample(f.parameters, seeded(callKey)))
          return {
            id: `call_${hex(callKey)}${hex(mixSeeds(callKey, 1))}`,
            name: f.name,
            arguments: args,
            fragments: fragment(args, callKey),
          }
        }),
      }
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

const usageOf = (req: ChatRequest, ps: ReadonlyArray<ChoicePlan>) => {
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

const tokenLogprob = (t: GeneratedToken, top: number) => ({
  token: t.text,
  logprob: t.logprob,
  bytes: Array.from(encoder.encode(t.text)),
  top_logprobs: t.top
    .slice(0, top)
    .map((e) => ({ token: e.text, logprob: e.logprob, bytes: Array.from(encoder.encode(e.text)) })),
})

const finishOf = (plan: ChoicePlan): string => (plan.kind === "tools" ? "tool_calls" : plan.gen.finishReason)

/** The `event: tool_status` frames of the built-in tools, then nothing else (the answer follows). */
const toolStatusFrames = (req: ChatRequest, meta: ResponseMeta, toolError: boolean): ReadonlyArray<Frame> => {
  if (req.builtins.length === 0 || req.toolChoice === "none") return []
  const frames: Array<Frame> = []
  const promptKey = promptKeyOf(req)
  const question = lastUserText(req).slice(0, 60) || "mock query"
  req.builtins.forEach((name, k) => {
    const key = mixSeeds(promptKey, 0x7001, k)
    const random = seeded(key)
    const a = Math.floor(random() * 1000)
    const b = Math.floor(random() * 100)
    const parameters =
      name === "math:calculator" || name === "math:statistics"
        ? [{ name: "expression", value: `${a} * ${b}` }]
        : name === "code:python-interpreter"
          ? [{ name: "code", value: `print(${a} * ${b})` }]
          : name === "web:url"
            ? [{ name: "url", value: `https://example.com/${words(random, 1)}` }]
            : [{ name: "query", value: question }]
    const base = {
      tool_call_id: `call_${hex(key)}${hex(mixSeeds(key, 1))}`,
      name,
      parameters,
      files: null,
      message: null,
      timestamp: meta.created,
    }
    frames.push({ kind: "data", event: "tool_status", data: { ...base, status: "STARTED", result: null, error: null } })
    if (toolError && k === 0) {
      frames.push({
        kind: "data",
        event: "tool_status",
        data: {
          ...base,
          status: "ERRORED",
          result: null,
          error: { type: "mock_tool_error", msg: `Injected failure of ${name}` },
        },
      })
      return
    }
    frames.push({
      kind: "data",
      event: "tool_status",
      data: { ...base, status: "UPDATING", result: null, error: null },
    })
    const result = JSON.stringify({
      result:
        name.startsWith("math:") || name.startsWith("code:")
          ? `${a * b}`
          : `mock result of ${name} for '${parameters[0]!.value}'`,
    })
    frames.push({ kind: "data", event: "tool_status", data: { ...base, status: "ENDED", result, error: null } })
  })
  return frames
}

/**
 * The text of a choice as deltas, in order: its reasoning (as `reasoning_content`, or in `content` between `<think>`
 * tags, or left out), then its answer (or a tools choice's preface) as `content`, with the tokens for logprobs.
 */
const textDeltas = (
  req: ChatRequest,
  plan: ChoicePlan,
): ReadonlyArray<{ text: string; field: string; token: GeneratedToken | undefined }> => {
  const mode = reasoningMode(req, plan)
  const thought = mode === "none" ? [] : plan.gen.reasoning.map((t) => t.text)
  const reasoning =
    mode === "inline"
      ? [THINK_OPEN, ...thought, THINK_CLOSE].map((text) => ({ text, field: "content", token: undefined }))
      : thought.map((text) => ({ text, field: "reasoning_content", token: undefined }))
  return [...reasoning, ...plan.gen.tokens.map((t) => ({ text: t.text, field: "content", token: t }))]
}

/** The streamed events of a chat request, `[DONE]` included. */
export const chatFrames = (req: ChatRequest, meta: ResponseMeta, toolError: boolean): ReadonlyArray<Frame> => {
  const ps = plans(req)
  const frames: Array<Frame> = [...toolStatusFrames(req, meta, toolError)]
  const chunk = (choice: Json): Frame => ({
    kind: "data",
    data: { id: meta.id, model: meta.model, object: "chat.completion.chunk", choices: [choice], created: meta.created },
  })
  // each choice as a list of deltas, then interleave the choices step by step
  const perChoice = ps.map((plan, index): Array<Frame> => {
    const texts = textDeltas(req, plan)
    // the role comes with the choice's first delta only
    const deltas: Array<{ delta: Json; token: GeneratedToken | undefined }> = [
      ...texts.map(({ text, field, token }) => ({ delta: { [field]: text }, token })),
      ...(plan.kind === "tools"
        ? plan.calls.flatMap((call, j) =>
            toolCallDeltas(call, j).map((t) => ({ delta: { tool_calls: [t] }, token: undefined })),
          )
        : []),
    ]
    if (deltas.length === 0) deltas.push({ delta: { content: "" }, token: undefined })
    const out = deltas.map(({ delta, token }, i) =>
      chunk({
        index,
        delta: i === 0 ? { role: "assistant", ...delta } : delta,
        finish_reason: null,
        logprobs: req.logprobs && token !== undefined ? { content: [tokenLogprob(token, req.topLogprobs)] } : null,
      }),
    )
    out.push(chunk({ index, delta: {}, finish_reason: finishOf(plan), logprobs: null }))
    return out
  })
  const longest = Math.max(...perChoice.map((f) => f.length))
  for (let step = 0; step < longest; step++) {
    for (const list of perChoice) {
      const frame = list[step]
      if (frame !== undefined) frames.push(frame)
    }
  }
  if (req.includeUsage) {
    frames.push({
      kind: "data",
      data: {
        id: meta.id,
        model: meta.model,
        object: "chat.completion.chunk",
        choices: [],
        usage: usageOf(req, ps),
        created: meta.created,
      },
    })
  }
  frames.push({ kind: "done" })
  return frames
}

/** A choice's message without its calls: content (a tools choice without text has none) and reasoning. */
const messageOf = (req: ChatRequest, plan: ChoicePlan): Json => {
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
export const chatBody = (req: ChatRequest, meta: ResponseMeta): Json => {
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
