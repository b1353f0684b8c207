/**
 * `POST /v1/messages` (Anthropic's Messages format, as Friendli serves it): reads the request, and produces the
 * events of a stream (`message_start`, `content_block_start/delta/stop`, a `ping` after the first block starts,
 * `message_delta`, `message_stop`; no `[DONE]`) and the non-streamed message. Each event is framed `event: TYPE` +
 * `data: {json}`.
 */
import * as Core from "@friendli-stream/core"
import type { ResponseMeta } from "./completions.ts"
import type { ValidationIssue } from "./errors.ts"
import type { Frame } from "./frames.ts"
import { reasoningLength } from "./replies.ts"
import { idOf, keyOf, planTurn, type Turn, type TurnFunction, type TurnToolChoice, textOf } from "./turn.ts"
import { Checker, isObject, MAX_TOKENS } from "./validate.ts"

/** A valid Messages request. */
export interface MessagesRequest {
  readonly stream: boolean
  readonly turn: Turn
}

/** Reads and validates a Messages body against the deployment's request Schema. */
export const readMessages = (
  body: unknown,
  container: boolean,
):
  | { readonly ok: true; readonly request: MessagesRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const stream = isObject(body) && body.stream === true
  const schema = container
    ? stream
      ? Core.ContainerMessagesStreamBody
      : Core.ContainerMessagesBody
    : stream
      ? Core.ServerlessMessagesStreamBody
      : Core.ServerlessMessagesBody
  const c = new Checker<Core.ContainerMessagesBody>(body, schema)
  const req = c.request
  const messages = req.messages ?? []
  if (req.messages !== undefined && messages.length === 0) {
    c.issue(["messages"], "List should have at least 1 item", "too_short")
  }
  const maxTokens = c.atMost("max_tokens", req.max_tokens, MAX_TOKENS, "the mock model's context length")
  const functions: Array<TurnFunction> = (req.tools ?? []).map((t) => ({ name: t.name, parameters: t.input_schema }))
  const choice = req.tool_choice ?? undefined
  let toolChoice: TurnToolChoice = functions.length > 0 ? "auto" : "none"
  if (choice?.type === "none" || choice?.type === "auto") toolChoice = choice.type
  else if (choice?.type === "any") toolChoice = "required"
  else if (choice?.type === "tool") {
    const name = choice.name ?? ""
    if (!functions.some((f) => f.name === name)) {
      c.issue(["tool_choice", "name"], `No tool named '${name}' in tools`, "value_error", choice.name ?? null)
    }
    toolChoice = { name }
  }
  const thinking = req.thinking ?? undefined
  const thinks = thinking?.type === "enabled" || thinking?.type === "adaptive"
  const budget =
    thinking !== undefined && "budget_tokens" in thinking ? (thinking.budget_tokens ?? undefined) : undefined
  if (thinks && budget !== undefined && maxTokens !== undefined && budget >= maxTokens) {
    c.issue(["thinking", "budget_tokens"], "budget_tokens must be less than max_tokens", "value_error", budget)
  }
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  let last = ""
  for (const m of messages) if (m.role === "user" && typeof m.content === "string") last = m.content
  for (const m of messages) {
    if (m.role === "user" && Array.isArray(m.content)) {
      const text = textOf(m.content.filter((b) => isObject(b) && b.type === "text"))
      if (text !== "") last = text
    }
  }
  const lastMessage = messages.at(-1)
  const afterTool =
    Array.isArray(lastMessage?.content) && lastMessage.content.some((b) => isObject(b) && b.type === "tool_result")
  const system = textOf(req.system)
  const stop = req.stop_sequences ?? []
  const turn = planTurn({
    promptKey: keyOf([system, messages]),
    promptText: last,
    inputText: `${system} ${messages.map((m) => textOf(m.content)).join(" ")}`,
    maxTokens,
    stop,
    reasoningSentences: thinks ? reasoningLength(undefined) : undefined,
    reasoningBudget: budget,
    functions,
    toolChoice,
    parallel: choice?.disable_parallel_tool_use !== true,
    afterToolResult: afterTool,
  })
  return { ok: true, request: { stream, turn } }
}

type StopReason = "end_turn" | "max_tokens" | "tool_use" | "stop_sequence"

const stopReasonOf = (turn: Turn): StopReason =>
  turn.finish === "tool_calls" ? "tool_use" : turn.finish === "length" ? "max_tokens" : "end_turn"

/** The thinking block's signature: deterministic, opaque. */
const signatureOf = (turn: Turn): string => btoa(idOf("sig_", turn.key))

/** The content blocks of a finished turn: thinking, then text or tool uses. */
const contentOf = (turn: Turn): Array<Core.MessagesResponseContentBlockEncoded> => {
  const blocks: Array<Core.MessagesResponseContentBlockEncoded> = []
  if (turn.reasoning.length > 0) {
    blocks.push({ type: "thinking", thinking: turn.reasoning.join(""), signature: signatureOf(turn) })
  }
  if (turn.calls.length === 0) blocks.push({ type: "text", text: turn.gen.text })
  for (const call of turn.calls) {
    blocks.push({
      type: "tool_use",
      id: idOf("toolu_", keyOf(call.id)),
      name: call.name,
      input: JSON.parse(call.arguments),
    })
  }
  return blocks
}

const envelope = (meta: ResponseMeta, turn: Turn): Core.MessagesStreamMessageEnvelopeEncoded => ({
  id: meta.id,
  type: "message",
  role: "assistant",
  model: meta.model,
  content: [],
  stop_reason: null,
  stop_sequence: null,
  usage: { input_tokens: turn.inputTokens, output_tokens: 1 },
})

/** The `event: error` the `error` fault sends (Anthropic's `overloaded_error`). */
export const messagesFailure = (after: number): Core.MessagesStreamErrorEventEncoded => ({
  type: "error",
  error: { type: "overloaded_error", message: `Overloaded: injected after ${after} events (the 'error' fault).` },
})

/** The streamed events of a Messages request (no `[DONE]`). */
export const messagesFrames = (req: MessagesRequest, meta: ResponseMeta): ReadonlyArray<Frame> => {
  const { turn } = req
  const frames: Array<Frame> = []
  const emit = (data: Core.MessagesStreamEventEncoded) => frames.push({ kind: "data", event: data.type, data })
  emit({ type: "message_start", message: envelope(meta, turn) })
  contentOf(turn).forEach((block, index) => {
    if (block.type === "thinking") {
      emit({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } })
      for (const thinking of turn.reasoning) {
        emit({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking } })
      }
      emit({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: block.signature } })
    } else if (block.type === "text") {
      emit({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
      for (const t of turn.gen.tokens)
        emit({ type: "content_block_delta", index, delta: { type: "text_delta", text: t.text } })
    } else {
      const call = turn.calls.find((c) => block.id === idOf("toolu_", keyOf(c.id)))!
      emit({ type: "content_block_start", index, content_block: { ...block, input: {} } })
      for (const partial_json of call.fragments) {
        emit({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } })
      }
    }
    // Anthropic's keep-alive, which Friendli's description of the stream does not list
    if (index === 0) frames.push({ kind: "data", event: "ping", data: { type: "ping" } })
    emit({ type: "content_block_stop", index })
  })
  emit({
    type: "message_delta",
    delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
    usage: { output_tokens: turn.outputTokens },
  })
  emit({ type: "message_stop" })
  return frames
}

/** The non-streamed message: the same content as the stream accumulates to. */
export const messagesBody = (req: MessagesRequest, meta: ResponseMeta): Core.ContainerMessagesSuccessEncoded => ({
  ...envelope(meta, req.turn),
  content: contentOf(req.turn),
  stop_reason: stopReasonOf(req.turn),
  usage: { input_tokens: req.turn.inputTokens, output_tokens: req.turn.outputTokens },
})
