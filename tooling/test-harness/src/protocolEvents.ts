/**
 * Synthetic Responses, Messages and transcription streams in Friendli's strict shapes, as SSE text: the events the
 * decoder's and the client's protocol suites serve and decode.
 */

/** A JSON object. */
export type Json = Record<string, unknown>

/** One event as SSE: `event: <type>` (unless `named` is false) and its data. */
export const sseEvent = (event: Json, named = true): string =>
  `${named ? `event: ${String(event.type)}\n` : ""}data: ${JSON.stringify(event)}\n\n`

/** A body of events. */
export const sseEvents = (events: ReadonlyArray<Json>, named = true): string =>
  events.map((e) => sseEvent(e, named)).join("")

// ---- Responses ----------------------------------------------------------------------------------------------------

let sequence = 0
const seq = () => sequence++

export const responseSnapshot = (status: string, extra: Json = {}): Json => ({
  id: "resp_1",
  object: "response",
  created_at: 1_760_000_000,
  status,
  model: "friendli-model",
  output: [],
  error: null,
  incomplete_details: null,
  usage: null,
  ...extra,
})

export const lifecycle = (type: string, status: string, extra: Json = {}): Json => ({
  type,
  sequence_number: seq(),
  response: responseSnapshot(status, extra),
})

export const usage = {
  input_tokens: 12,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 30,
  total_tokens: 42,
}

/** A Responses stream: reasoning, a message, and a function call, in strict Friendli shapes. */
export const responsesEvents = (args: ReadonlyArray<string> = ['{"city":', '"Seoul"}']): Array<Json> => {
  sequence = 0
  const text = (type: string, index: number, item: string, delta: string, key = "delta"): Json => ({
    type,
    item_id: item,
    output_index: index,
    content_index: 0,
    [key]: delta,
    sequence_number: seq(),
  })
  const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", status: "in_progress" }
  return [
    lifecycle("response.created", "in_progress"),
    lifecycle("response.in_progress", "in_progress"),
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { type: "reasoning", id: "rs_1", summary: [], content: [] },
      sequence_number: seq(),
    },
    {
      type: "response.content_part.added",
      item_id: "rs_1",
      output_index: 0,
      content_index: 0,
      part: { type: "reasoning_text", text: "" },
      sequence_number: seq(),
    },
    text("response.reasoning_text.delta", 0, "rs_1", "The user wants "),
    text("response.reasoning_text.delta", 0, "rs_1", "the weather."),
    text("response.reasoning_text.done", 0, "rs_1", "The user wants the weather.", "text"),
    {
      type: "response.output_item.done",
      output_index: 0,
      item: {
        type: "reasoning",
        id: "rs_1",
        summary: [],
        content: [{ type: "reasoning_text", text: "The user wants the weather." }],
      },
      sequence_number: seq(),
    },
    {
      type: "response.output_item.added",
      output_index: 1,
      item: { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] },
      sequence_number: seq(),
    },
    {
      type: "response.content_part.added",
      item_id: "msg_1",
      output_index: 1,
      content_index: 0,
      part: { type: "output_text", text: "" },
      sequence_number: seq(),
    },
    text("response.output_text.delta", 1, "msg_1", "Let me "),
    text("response.output_text.delta", 1, "msg_1", "check."),
    text("response.output_text.done", 1, "msg_1", "Let me check.", "text"),
    {
      type: "response.output_item.added",
      output_index: 2,
      item: { ...call, arguments: "" },
      sequence_number: seq(),
    },
    ...args.map((delta) => ({
      type: "response.function_call_arguments.delta",
      item_id: "fc_1",
      output_index: 2,
      delta,
      sequence_number: seq(),
    })),
    {
      type: "response.function_call_arguments.done",
      item_id: "fc_1",
      output_index: 2,
      name: "get_weather",
      arguments: args.join(""),
      sequence_number: seq(),
    },
    lifecycle("response.completed", "completed", { usage }),
  ]
}

// ---- Messages -----------------------------------------------------------------------------------------------------

/** A Messages stream: thinking with its signature, text, and a tool call, with a ping, in strict Friendli shapes. */
export const messagesEvents = (input: ReadonlyArray<string> = ['{"city"', ': "Se', 'oul"}']): Array<Json> => [
  {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "friendli-model",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 1 },
    },
  },
  { type: "ping" },
  { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: null } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Weather means " } },
  { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "a tool call." } },
  { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-abc" } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Checking " } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "now." } },
  { type: "content_block_stop", index: 1 },
  {
    type: "content_block_start",
    index: 2,
    content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
  },
  ...input.map((partial_json) => ({
    type: "content_block_delta",
    index: 2,
    delta: { type: "input_json_delta", partial_json },
  })),
  { type: "content_block_stop", index: 2 },
  {
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { output_tokens: 48 },
  },
  { type: "message_stop" },
]

// ---- Transcriptions -----------------------------------------------------------------------------------------------

export const transcriptionUsage = {
  type: "tokens",
  input_tokens: 14,
  output_tokens: 8,
  total_tokens: 22,
  input_audio_length_ms: 2_000,
  processed_audio_length_ms: 2_000,
}

export const transcriptionEvents = (): Array<Json> => [
  { type: "transcript.text.delta", delta: "Hello" },
  { type: "transcript.text.delta", delta: " world." },
  { type: "transcript.text.done", text: "Hello world.", usage: transcriptionUsage },
]

/** A transcription body: its events unnamed, then `data: [DONE]`. */
export const transcriptionBody = (events: ReadonlyArray<Json> = transcriptionEvents()): string =>
  `${sseEvents(events, false)}data: [DONE]\n\n`
