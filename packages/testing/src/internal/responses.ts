/**
 * `POST /v1/responses` (OpenAI's Responses format, as Friendli serves it): reads the request, and produces the typed
 * events of a stream (`response.created` … `response.completed`, or `response.incomplete` when `max_output_tokens`
 * cut the answer; no `[DONE]`) and the non-streamed response. Each event is framed `event: TYPE` + `data: {json}`.
 */
import * as Core from "@friendli-stream/core"
import type { ResponseMeta } from "./completions.ts"
import type { ValidationIssue } from "./errors.ts"
import type { Frame } from "./frames.ts"
import { reasoningLength } from "./replies.ts"
import { idOf, keyOf, planTurn, type Turn, type TurnFunction, type TurnToolChoice, textOf } from "./turn.ts"
import { Checker, isObject, MAX_TOKENS } from "./validate.ts"

/** A valid Responses request. */
export interface ResponsesRequest {
  readonly stream: boolean
  readonly turn: Turn
}

const lastUser = (input: Core.ContainerResponsesBody["input"]): { last: string; all: string; afterTool: boolean } => {
  if (typeof input === "string") return { last: input, all: input, afterTool: false }
  let last = ""
  for (const item of input) if ("role" in item && item.role === "user") last = textOf(item.content)
  const texts = input.map((i) =>
    textOf("content" in i ? i.content : "output" in i ? i.output : "arguments" in i ? i.arguments : ""),
  )
  return { last, all: texts.join(" "), afterTool: input.at(-1)?.type === "function_call_output" }
}

/** Reads and validates a Responses body against the deployment's request Schema. */
export const readResponses = (
  body: unknown,
  container: boolean,
):
  | { readonly ok: true; readonly request: ResponsesRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const stream = isObject(body) && body.stream === true
  const schema = container
    ? stream
      ? Core.ContainerResponsesStreamBody
      : Core.ContainerResponsesBody
    : stream
      ? Core.ServerlessResponsesStreamBody
      : Core.ServerlessResponsesBody
  const c = new Checker<Core.ContainerResponsesBody>(body, schema)
  const req = c.request
  const maxTokens = c.atMost("max_output_tokens", req.max_output_tokens, MAX_TOKENS, "the mock model's context length")
  const functions: Array<TurnFunction> = (req.tools ?? []).flatMap((t) =>
    t.type === "function" ? [{ name: t.name, parameters: t.parameters ?? undefined }] : [],
  )
  const choice = req.tool_choice ?? undefined
  let toolChoice: TurnToolChoice = functions.length > 0 ? "auto" : "none"
  if (choice === "none" || choice === "auto" || choice === "required") toolChoice = choice
  else if (typeof choice === "object" && "name" in choice && typeof choice.name === "string") {
    const name = choice.name
    if (!functions.some((f) => f.name === name)) {
      c.issue(["tool_choice", "name"], `No function named '${name}' in tools`, "value_error", name)
    }
    toolChoice = { name }
  }
  const effort = req.reasoning?.effort
  const sentences = typeof effort === "string" ? reasoningLength(effort) : undefined
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  const input = req.input ?? ""
  const { last, all, afterTool } = lastUser(input)
  const instructions = req.instructions ?? ""
  const turn = planTurn({
    promptKey: keyOf([instructions, input]),
    promptText: last,
    inputText: `${instructions} ${all}`,
    maxTokens,
    stop: [],
    reasoningSentences: sentences === 0 ? undefined : sentences,
    reasoningBudget: undefined,
    functions,
    toolChoice,
    parallel: req.parallel_tool_calls ?? true,
    afterToolResult: afterTool,
  })
  return { ok: true, request: { stream, turn } }
}

type Status = "completed" | "incomplete"

const statusOf = (turn: Turn): Status => (turn.finish === "length" ? "incomplete" : "completed")

const usageOf = (turn: Turn): Core.ResponsesUsageEncoded => ({
  input_tokens: turn.inputTokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: turn.outputTokens,
  output_tokens_details: { reasoning_tokens: turn.reasoning.length },
  total_tokens: turn.inputTokens + turn.outputTokens,
})

/** The output items of a finished turn, in order: reasoning, then the message or the function calls. */
const outputOf = (turn: Turn, status: Status): Array<Core.ResponsesOutputItemEncoded> => {
  const items: Array<Core.ResponsesOutputItemEncoded> = []
  if (turn.reasoning.length > 0) {
    items.push({
      type: "reasoning",
      id: idOf("rs_", turn.key),
      summary: [],
      content: [{ type: "reasoning_text", text: turn.reasoning.join("") }],
      status: "completed",
    })
  }
  if (turn.calls.length === 0) {
    items.push({
      type: "message",
      id: idOf("msg_", turn.key),
      role: "assistant",
      status,
      content: [{ type: "output_text", text: turn.gen.text }],
    })
  }
  for (const call of turn.calls) {
    items.push({
      type: "function_call",
      id: idOf("fc_", keyOf(call.id)),
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: "completed",
    })
  }
  return items
}

/** The response object: a snapshot with `status` and `output` as given. */
const snapshot = (
  meta: ResponseMeta,
  turn: Turn,
  status: "in_progress" | Status | "failed",
  output: ReadonlyArray<Core.ResponsesOutputItemEncoded>,
): Core.ResponsesSuccessEncoded => ({
  id: meta.id,
  object: "response",
  created_at: meta.created,
  status,
  error: null,
  incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
  model: meta.model,
  output,
  usage: status === "in_progress" ? null : usageOf(turn),
})

/** The `response.failed` event the `error` fault sends after `after` events (sequence number `after`). */
export const responsesFailure = (
  meta: ResponseMeta,
  turn: Turn,
  after: number,
): Core.ResponsesStreamResponseEventEncoded => ({
  type: "response.failed",
  response: {
    ...snapshot(meta, turn, "failed", []),
    error: { code: "server_error", message: `Injected failure after ${after} events (the 'error' fault).` },
    usage: null,
  },
  sequence_number: after,
})

/** An event before the stream numbers it. */
type Unnumbered<E> = E extends unknown ? Omit<E, "sequence_number"> : never

/** The streamed events of a Responses request (no `[DONE]`). */
export const responsesFrames = (req: ResponsesRequest, meta: ResponseMeta): ReadonlyArray<Frame> => {
  const { turn } = req
  const frames: Array<Frame> = []
  const emit = (data: Unnumbered<Core.ResponsesStreamEventEncoded>) => {
    const event = { ...data, sequence_number: frames.length } as Core.ResponsesStreamEventEncoded
    frames.push({ kind: "data", event: data.type, data: event })
  }
  const status = statusOf(turn)
  const done = outputOf(turn, status)
  emit({ type: "response.created", response: snapshot(meta, turn, "in_progress", []) })
  emit({ type: "response.in_progress", response: snapshot(meta, turn, "in_progress", []) })
  done.forEach((item, output_index) => {
    const item_id = item.id as string
    if (item.type === "reasoning") {
      const text = turn.reasoning.join("")
      emit({
        type: "response.output_item.added",
        output_index,
        item: { ...item, content: [], status: "in_progress" },
      })
      const part = { item_id, output_index, content_index: 0 }
      emit({ type: "response.content_part.added", ...part, part: { type: "reasoning_text", text: "" } })
      for (const delta of turn.reasoning) emit({ type: "response.reasoning_text.delta", ...part, delta })
      emit({ type: "response.reasoning_text.done", ...part, text })
      emit({ type: "response.content_part.done", ...part, part: { type: "reasoning_text", text } })
    } else if (item.type === "message") {
      emit({
        type: "response.output_item.added",
        output_index,
        item: { ...item, content: [], status: "in_progress" },
      })
      const part = { item_id, output_index, content_index: 0 }
      emit({ type: "response.content_part.added", ...part, part: { type: "output_text", text: "" } })
      for (const t of turn.gen.tokens) emit({ type: "response.output_text.delta", ...part, delta: t.text })
      emit({ type: "response.output_text.done", ...part, text: turn.gen.text })
      emit({ type: "response.content_part.done", ...part, part: { type: "output_text", text: turn.gen.text } })
    } else {
      const call = turn.calls.find((c) => c.id === item.call_id)!
      emit({
        type: "response.output_item.added",
        output_index,
        item: { ...item, arguments: "", status: "in_progress" },
      })
      for (const delta of call.fragments) {
        emit({ type: "response.function_call_arguments.delta", item_id, output_index, delta })
      }
      emit({
        type: "response.function_call_arguments.done",
        item_id,
        output_index,
        arguments: call.arguments,
        name: call.name,
      })
    }
    emit({ type: "response.output_item.done", output_index, item })
  })
  emit({ type: `response.${status}`, response: snapshot(meta, turn, status, done) })
  return frames
}

/** The non-streamed response: the same output as the stream's last event. */
export const responsesBody = (req: ResponsesRequest, meta: ResponseMeta): Core.ResponsesSuccessEncoded => {
  const status = statusOf(req.turn)
  return snapshot(meta, req.turn, status, outputOf(req.turn, status))
}
