/**
 * `POST /v1/chat/completions` and the tool-assisted `POST /tools/v1/chat/completions`: reads the request, decides
 * between text and tool calls, and produces the streamed frames and the non-streamed body.
 *
 * Tool-call rule (deterministic, so tests can rely on it): with `tool_choice` `"auto"` (the default when `tools` are
 * given) the model calls every function whose name appears in the last user message; `"required"` does the same but
 * falls back to the first function; `{"type":"function","function":{"name"}}` calls that function; `"none"` and a
 * conversation whose last message is a `tool` result answer with text. `parallel_tool_calls: false` keeps one call.
 */

import type { ResponseMeta } from "./completions.ts"
import type { ValidationIssue } from "./errors.ts"
import { hashString, mixSeeds, seeded } from "./prng.ts"
import { sample } from "./schema-sample.ts"
import type { Frame } from "./sse.ts"
import { fragment, type GeneratedToken, type Generation, generate, tokenize, words } from "./tokens.ts"
import { type GenerationParams, isObject, type Json, MAX_LOGPROBS, Reader, readGeneration } from "./validate.ts"

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

const ROLES = ["system", "developer", "user", "assistant", "tool"]

interface FunctionTool {
  readonly name: string
  readonly parameters: unknown
}

type ToolChoice = "none" | "auto" | "required" | { readonly name: string }

type ResponseFormat =
  | { readonly type: "text" }
  | { readonly type: "regex" }
  | { readonly type: "json_object"; readonly schema: unknown }

/** A valid chat request. */
export interface ChatRequest extends GenerationParams {
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

const readMessages = (r: Reader): ReadonlyArray<Json> => {
  const messages = r.array("messages")
  if (messages === undefined) {
    if (!r.has("messages")) r.issue(["messages"], "Field required", "missing")
    return []
  }
  if (messages.length === 0) r.issue(["messages"], "List should have at least 1 item", "too_short")
  const out: Array<Json> = []
  messages.forEach((m, i) => {
    if (!isObject(m)) {
      r.issue(["messages", i], "Input should be a valid dictionary", "dict_type", m)
      return
    }
    if (typeof m.role !== "string" || !ROLES.includes(m.role)) {
      r.issue(["messages", i, "role"], `Input should be ${ROLES.map((x) => `'${x}'`).join(", ")}`, "enum", m.role)
      return
    }
    const content = m.content
    const hasCalls = m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0
    if (content === undefined || content === null) {
      if (!hasCalls) r.issue(["messages", i, "content"], "Field required", "missing")
    } else if (typeof content !== "string" && !Array.isArray(content)) {
      r.issue(
        ["messages", i, "content"],
        "Input should be a valid string or a list of content parts",
        "string_type",
        content,
      )
    }
    if (m.role === "tool" && typeof m.tool_call_id !== "string") {
      r.issue(["messages", i, "tool_call_id"], "Field required", "missing")
    }
    out.push(m)
  })
  return out
}

const readTools = (r: Reader, toolsApi: boolean): { functions: Array<FunctionTool>; builtins: Array<string> } => {
  const functions: Array<FunctionTool> = []
  const builtins: Array<string> = []
  const tools = r.array("tools")
  if (tools === undefined) return { functions, builtins }
  if (tools.length > 128) r.issue(["tools"], "List should have at most 128 items", "too_long")
  tools.forEach((t, i) => {
    if (!isObject(t)) {
      r.issue(["tools", i], "Input should be a valid dictionary", "dict_type", t)
      return
    }
    if (t.type === "function") {
      const f = t.function
      if (!isObject(f)) {
        r.issue(["tools", i, "function"], "Field required", "missing")
        return
      }
      if (typeof f.name !== "string" || !NAME.test(f.name)) {
        r.issue(
          ["tools", i, "function", "name"],
          "Must be a-z, A-Z, 0-9, underscores or dashes, at most 64",
          "string_pattern_mismatch",
          f.name,
        )
        return
      }
      if (f.parameters !== undefined && !isObject(f.parameters)) {
        r.issue(["tools", i, "function", "parameters"], "Input should be a valid dictionary", "dict_type", f.parameters)
        return
      }
      functions.push({ name: f.name, parameters: f.parameters ?? { type: "object", properties: {} } })
    } else if (toolsApi && typeof t.type === "string" && (BUILTIN_TOOLS as ReadonlyArray<string>).includes(t.type)) {
      if (t.type === "file:text" && !Array.isArray(t.files)) {
        r.issue(["tools", i, "files"], "Field required", "missing")
        return
      }
      builtins.push(t.type)
    } else {
      const allowed = toolsApi ? ["function", ...BUILTIN_TOOLS] : ["function"]
      r.issue(["tools", i, "type"], `Input should be ${allowed.map((x) => `'${x}'`).join(", ")}`, "enum", t.type)
    }
  })
  return { functions, builtins }
}

const readToolChoice = (r: Reader, functions: ReadonlyArray<FunctionTool>, hasTools: boolean): ToolChoice => {
  const v = r.body.tool_choice
  if (v === undefined || v === null) return hasTools ? "auto" : "none"
  if (v === "none" || v === "auto" || v === "required") return v
  if (isObject(v) && v.type === "function" && isObject(v.function) && typeof v.function.name === "string") {
    const name = v.function.name
    if (!functions.some((f) => f.name === name)) {
      r.issue(["tool_choice", "function", "name"], `No function named '${name}' in tools`, "value_error", name)
    }
    return { name }
  }
  r.issue(
    ["tool_choice"],
    `Input should be 'none', 'auto', 'required' or {"type": "function", "function": {"name": ...}}`,
    "value_error",
    v,
  )
  return "none"
}

const readResponseFormat = (r: Reader): ResponseFormat => {
  const v = r.object("response_format")
  if (v === undefined || v.type === "text") return { type: "text" }
  if (v.type === "regex") {
    if (typeof v.schema !== "string")
      r.issue(["response_format", "schema"], "Field required: a regex pattern", "missing")
    return { type: "regex" }
  }
  if (v.type === "json_object" || v.type === "json_schema") {
    let schema: unknown
    if (typeof v.schema === "string") {
      try {
        schema = JSON.parse(v.schema)
      } catch {
        r.issue(["response_format", "schema"], "schema should be a serialized JSON schema", "json_invalid", v.schema)
      }
    } else if (isObject(v.json_schema)) schema = v.json_schema.schema
    return { type: "json_object", schema }
  }
  r.issue(
    ["response_format", "type"],
    "Input should be 'text', 'json_object', 'json_schema' or 'regex'",
    "enum",
    v.type,
  )
  return { type: "text" }
}

/** Reads and validates a chat completions body. */
export const readChat = (
  body: Json,
  model: string,
  toolsApi: boolean,
):
  | { readonly ok: true; readonly request: ChatRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const r = new Reader(body)
  const gen = readGeneration(r, model)
  const messages = readMessages(r)
  const { functions, builtins } = readTools(r, toolsApi)
  const toolChoice = readToolChoice(r, functions, functions.length + builtins.length > 0)
  if (toolChoice === "required" && functions.length === 0 && builtins.length === 0) {
    r.issue(["tool_choice"], "tool_choice 'required' needs at least one tool", "value_error", "required")
  }
  const parallelToolCalls = r.boolean("parallel_tool_calls") ?? true
  const logprobs = r.boolean("logprobs") ?? false
  const topLogprobs = r.integer("top_logprobs", 0, MAX_LOGPROBS)
  if (topLogprobs !== undefined && !logprobs) {
    r.issue(["top_logprobs"], "logprobs must be set to true if top_logprobs is used", "value_error", topLogprobs)
  }
  const responseFormat = readResponseFormat(r)
  if (r.issues.length > 0) return { ok: false, issues: r.issues }
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

interface ToolCallPlan {
  readonly id: string
  readonly name: string
  readonly arguments: string
  readonly fragments: ReadonlyArray<string>
}

type ChoicePlan =
  | { readonly kind: "text"; readonly gen: Generation }
  | { readonly kind: "tools"; readonly calls: ReadonlyArray<ToolCallPlan> }

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
    if (functions.length > 0) {
      return {
        kind: "tools",
        calls: functions.map((f, j) => {
          const key = mixSeeds(promptKey, ...choiceKey(seed, index), j)
          const args = JSON.stringify(sample(f.parameters, seeded(key)))
          return {
            id: `call_${hex(key)}${hex(mixSeeds(key, 1))}`,
            name: f.name,
            arguments: args,
            fragments: fragment(args, key),
          }
        }),
      }
    }
    const common = {
      promptKey,
      seed,
      index,
      maxTokens: req.maxTokens,
      minTokens: req.minTokens,
      ignoreEos: req.ignoreEos,
      stop: req.stop,
    }
    if (req.responseFormat.type === "json_object") {
      const key = mixSeeds(promptKey, ...choiceKey(seed, index))
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
  plan.kind === "text" ? plan.gen.tokens.length : plan.calls.reduce((s, c) => s + c.fragments.length, 0)

const usageOf = (req: ChatRequest, ps: ReadonlyArray<ChoicePlan>) => {
  const prompt = promptTokens(req)
  const completion = ps.reduce((s, p) => s + completionTokens(p), 0)
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
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
    const out: Array<Frame> = []
    if (plan.kind === "text") {
      const tokens = plan.gen.tokens
      if (tokens.length === 0)
        out.push(chunk({ index, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null }))
      tokens.forEach((t, i) => {
        out.push(
          chunk({
            index,
            delta: i === 0 ? { role: "assistant", content: t.text } : { content: t.text },
            finish_reason: null,
            logprobs: req.logprobs ? { content: [tokenLogprob(t, req.topLogprobs)] } : null,
          }),
        )
      })
    } else {
      plan.calls.forEach((call, j) => {
        out.push(
          chunk({
            index,
            delta: {
              ...(j === 0 ? { role: "assistant" } : {}),
              tool_calls: [{ index: j, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
            },
            finish_reason: null,
            logprobs: null,
          }),
        )
        for (const piece of call.fragments) {
          out.push(
            chunk({
              index,
              delta: { tool_calls: [{ index: j, type: "function", function: { arguments: piece } }] },
              finish_reason: null,
              logprobs: null,
            }),
          )
        }
      })
    }
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
          ? { role: "assistant", content: plan.gen.text }
          : {
              role: "assistant",
              content: null,
              tool_calls: plan.calls.map((c) => ({
                id: c.id,
                type: "function",
                function: { name: c.name, arguments: c.arguments },
              })),
            },
      finish_reason: finishOf(plan),
      logprobs:
        req.logprobs && plan.kind === "text"
          ? { content: plan.gen.tokens.map((t) => tokenLogprob(t, req.topLogprobs)) }
          : null,
    })),
    usage: usageOf(req, ps),
    created: meta.created,
  }
}
