/**
 * A runnable tour of the Responses, Messages and transcription decoders, with no network: a `Response` made from a
 * string stands in for a server.
 *
 *   pnpm --filter @friendli-stream/stream build && pnpm exec node examples/protocols.ts   (Node >= 22.19 runs .ts as is)
 */

import {
  decodeMessagesStream,
  decodeResponsesStream,
  decodeTranscriptionStream,
  MessagesStream,
  ResponsesStream,
  StreamTruncated,
} from "@friendli-stream/stream"
import { Effect } from "effect"

const sse = (events: ReadonlyArray<Record<string, unknown>>, named = true) =>
  events.map((e) => `${named ? `event: ${String(e.type)}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join("")
const body = (text: string) => new Response(text).body as ReadableStream<Uint8Array>

// A Friendli /v1/responses stream: a message, then a function call.
let n = 0
const response = (type: string, status: string) => ({
  type,
  sequence_number: n++,
  response: { id: "resp_1", object: "response", created_at: 1_760_000_000, status, output: [] },
})
const responses = sse([
  response("response.created", "in_progress"),
  {
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] },
    sequence_number: n++,
  },
  ...["Let me ", "check."].map((delta) => ({
    type: "response.output_text.delta",
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    delta,
    sequence_number: n++,
  })),
  {
    type: "response.output_item.added",
    output_index: 1,
    item: { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "" },
    sequence_number: n++,
  },
  ...['{"city":', '"Seoul"}'].map((delta) => ({
    type: "response.function_call_arguments.delta",
    item_id: "fc_1",
    output_index: 1,
    delta,
    sequence_number: n++,
  })),
  response("response.completed", "completed"),
])

// 1. The facade: typed events, narrowed on `type`.
for await (const event of decodeResponsesStream(body(responses))) {
  if (event.type === "response.output_text.delta") console.log("responses: text", JSON.stringify(event.delta))
  else console.log("responses:", event.type)
}

// 2. The Effect API: the final response, the call's arguments parsed (when the call is done: here, at
//    response.completed).
const final = await Effect.runPromise(ResponsesStream.accumulate(ResponsesStream.fromReadableStream(body(responses))))
console.log("final response:", final.status, JSON.stringify(final.output_text), final.output[1]?.parsed_arguments)

// 3. A cut body: every whole event, then StreamTruncated (the stream never reached response.completed).
try {
  const cut = responses.slice(0, responses.lastIndexOf("event: response.completed"))
  for await (const event of decodeResponsesStream(body(cut))) void event
} catch (error) {
  if (error instanceof StreamTruncated) console.log("cut:", error.message)
}

// 4. A Messages stream (Anthropic's shape), folded without Effect.
const messages = sse([
  {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [],
      usage: { input_tokens: 9, output_tokens: 1 },
    },
  },
  { type: "ping" },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello!" } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
  { type: "message_stop" },
])
const message = MessagesStream.accumulator()
for await (const event of decodeMessagesStream(body(messages))) message.add(event)
console.log("final message:", JSON.stringify(message.result().content), message.result().stop_reason)

// 5. A transcription stream: deltas, the whole text, then [DONE].
const transcription = `${sse(
  [
    { type: "transcript.text.delta", delta: "Hello" },
    { type: "transcript.text.delta", delta: " world." },
    { type: "transcript.text.done", text: "Hello world." },
  ],
  false,
)}data: [DONE]\n\n`
for await (const event of decodeTranscriptionStream(body(transcription))) console.log("transcription:", event.type)
