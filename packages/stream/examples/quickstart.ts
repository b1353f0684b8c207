/**
 * A runnable tour of the decoder, with no network: a `Response` made from a string stands in for a server.
 *
 *   pnpm --filter @friendli-stream/stream build && pnpm exec node examples/quickstart.ts   (Node >= 22.19 runs .ts as is)
 */

import { CompletionStream, decodeCompletionStream, isStreamError, Sse, StreamMetrics } from "@friendli-stream/stream"
import { Effect, Stream } from "effect"

// What a Friendli /v1/completions stream looks like on the wire (note Friendli's "null" finish_reason).
const chunk = (text: string, finish: string) =>
  `data: {"id":"cmpl-1","object":"text_completion","created":1733382157,"model":"meta-llama-3.1-8b-instruct",` +
  `"choices":[{"index":0,"text":"${text}","token":1,"finish_reason":"${finish}"}]}\n\n`
const wire =
  ": keep-alive\n\n" +
  chunk("Hello", "null") +
  chunk(", world", "null") +
  chunk("", "stop") +
  `data: {"id":"cmpl-1","object":"text_completion","created":1733382157,"choices":[],` +
  `"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n` +
  "data: [DONE]\n\n"
const body = () => new Response(wire).body as ReadableStream<Uint8Array>

// 1. The plain facade: for await, typed chunks, typed errors.
for await (const c of decodeCompletionStream(body())) {
  const choice = c.choices[0]
  console.log(
    "facade:",
    choice === undefined
      ? `usage ${JSON.stringify(c.usage)}`
      : `${JSON.stringify(choice.text)} ${choice.finish_reason}`,
  )
}

// 2. The Effect API: a Stream of typed chunks, folded into the final completion, with metrics.
const program = Effect.gen(function* () {
  const completion = yield* CompletionStream.accumulate(CompletionStream.fromReadableStream(body()))
  console.log("accumulated:", completion.choices[0]?.text, completion.choices[0]?.finish_reason, completion.usage)
  const metrics = yield* StreamMetrics.measure(CompletionStream.fromReadableStream(body()))
  console.log("metrics:", metrics.chunks, "chunks,", metrics.tokens, "tokens")
  const events = yield* Stream.runCollect(Sse.fromReadableStream(body()))
  console.log("raw SSE events:", events.length)
})
await Effect.runPromise(program)

// 3. A body cut short: every whole chunk arrives, then a typed error says what happened.
const cut = new Response(wire.slice(0, wire.indexOf("data: [DONE]"))).body as ReadableStream<Uint8Array>
try {
  for await (const c of decodeCompletionStream(cut)) console.log("before the cut:", c.choices.length, "choice(s)")
} catch (error) {
  if (isStreamError(error)) console.log(`${error._tag}: ${error.message}`)
  else throw error
}
