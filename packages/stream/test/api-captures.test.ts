/**
 * Real Responses, Messages and transcription streams (../shared/reference/api-captures, outside the repository: read
 * at run time, never copied; see SOURCES.txt there): every body decodes to the events it holds, or fails with the
 * typed error it deserves, whole and cut into 1-byte and 7-byte reads, on the Effect API and the facade, in both
 * validation modes; and folds into what its events say, read independently from its raw JSON. Shared by the Node,
 * Deno and Bun suites (workerd has no file access).
 */
import assert from "node:assert/strict"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import { requireShared, sharedPath, sharedSkip } from "@friendli-stream/test-harness/shared"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import {
  ApiError,
  ChunkDecodeError,
  type DecodeOptions,
  decodeMessagesStream,
  decodeResponsesStream,
  decodeTranscriptionStream,
  MessagesStream,
  ResponsesStream,
  TranscriptionStream,
} from "../src/index.ts"
import { cutEvery, pieceStream, RUNTIME, runAll, testBody } from "./support.ts"

const API_CAPTURES = sharedPath("reference/api-captures/")

type Api = "responses" | "messages" | "transcriptions"

/** What a capture decodes to in one mode: its events, or a failure at the first event of `at`'s type. */
type Outcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: "ApiError"; readonly retryable: boolean; readonly at: string }
  | { readonly ok: false; readonly error: "SchemaMismatch"; readonly at: string }

const ok: Outcome = { ok: true }
const mismatch = (at: string): Outcome => ({ ok: false, error: "SchemaMismatch", at })

/**
 * What each capture deserves, strict and compatible. Strict mode is Friendli's description: OpenAI's and
 * Anthropic's events that it does not list (hosted tools, reasoning summaries, diarized segments) or shape
 * differently (no `sequence_number`, no `name` on `function_call_arguments.done`, usage without audio lengths) fail
 * with `SchemaMismatch` at the first such event; compatible mode reads them all. A capture not listed here fails
 * the suite: say what it deserves.
 */
const EXPECTED: Record<string, { readonly strict: Outcome; readonly compatible: Outcome }> = {
  "responses/pydantic-ai.background-starting-after.1.body.sse": {
    strict: mismatch("response.queued"),
    compatible: ok,
  },
  "responses/pydantic-ai.bedrock-mantle-reused-tool-ids.2.body.sse": { strict: ok, compatible: ok },
  "responses/pydantic-ai.deepseek-responses-text.0.body.sse": { strict: ok, compatible: ok },
  // The older wire shape: no sequence_number, which Friendli's description requires.
  "responses/pydantic-ai.openai-fn-call-noseq.0.body.sse": { strict: mismatch("response.created"), compatible: ok },
  // No event: lines at all, and a [DONE] after response.completed (not read).
  "responses/pydantic-ai.openrouter-raw-cot.0.body.sse": { strict: ok, compatible: ok },
  "responses/pydantic-ai.phase-text-then-fn-call.0.body.sse": {
    strict: mismatch("response.function_call_arguments.done"),
    compatible: ok,
  },
  "responses/pydantic-ai.thinking-code-execution.0.body.sse": {
    strict: mismatch("response.reasoning_summary_part.added"),
    compatible: ok,
  },
  "responses/pydantic-ai.thinking-part-iter.0.body.sse": {
    strict: mismatch("response.reasoning_summary_part.added"),
    compatible: ok,
  },
  // The first output item is a web_search_call, which Friendli's description does not list.
  "responses/pydantic-ai.web-search-stream.0.body.sse": {
    strict: mismatch("response.output_item.added"),
    compatible: ok,
  },
  "responses/simonw-llm.responses-tool-use-streaming.0.body.sse": {
    strict: mismatch("response.function_call_arguments.done"),
    compatible: ok,
  },
  // `event: error` (insufficient_quota) before response.failed: no retry helps.
  "responses/swiftagent.streaming-insufficient-quota.0.body.sse": {
    strict: { ok: false, error: "ApiError", retryable: false, at: "error" },
    compatible: { ok: false, error: "ApiError", retryable: false, at: "error" },
  },
  "messages/openllmetry.streaming-helper-late-ping.0.body.sse": { strict: ok, compatible: ok },
  "messages/openllmetry.sync-streaming-helper-no-ping.0.body.sse": { strict: ok, compatible: ok },
  "messages/openllmetry.thinking-streaming-37.0.body.sse": { strict: ok, compatible: ok },
  "messages/openllmetry.tools-streaming.0.body.sse": { strict: ok, compatible: ok },
  // Anthropic's hosted tools and compaction blocks are not in Friendli's description.
  "messages/pydantic-ai.anthropic-code-execution-stream.0.body.sse": {
    strict: mismatch("content_block_start"),
    compatible: ok,
  },
  "messages/pydantic-ai.anthropic-compaction-stream.0.body.sse": {
    strict: mismatch("content_block_start"),
    compatible: ok,
  },
  "messages/pydantic-ai.anthropic-mcp-servers-stream.0.body.sse": {
    strict: mismatch("content_block_start"),
    compatible: ok,
  },
  "messages/pydantic-ai.anthropic-pause-turn-web-search.0.body.sse": {
    strict: mismatch("content_block_start"),
    compatible: ok,
  },
  "messages/simonw-llm-anthropic.opus-46-adaptive-thinking.0.body.sse": { strict: ok, compatible: ok },
  "messages/simonw-llm-anthropic.stream-events-text.0.body.sse": { strict: ok, compatible: ok },
  "messages/simonw-llm-anthropic.thinking-prompt.0.body.sse": { strict: ok, compatible: ok },
  "messages/simonw-llm-anthropic.tool-chain-regression.0.body.sse": { strict: ok, compatible: ok },
  "messages/simonw-llm-anthropic.web-search.0.body.sse": { strict: mismatch("content_block_start"), compatible: ok },
  "transcriptions/openai-dotnet.streaming-diarized-async.0.body.sse": {
    strict: mismatch("transcript.text.segment"),
    compatible: ok,
  },
  "transcriptions/openai-dotnet.streaming-diarized.0.body.sse": {
    strict: mismatch("transcript.text.segment"),
    compatible: ok,
  },
  // OpenAI's usage has no input_audio_length_ms / processed_audio_length_ms, which Friendli's requires.
  "transcriptions/openai-dotnet.streaming-includes-logprobs.0.body.sse": {
    strict: mismatch("transcript.text.done"),
    compatible: ok,
  },
  "transcriptions/openai-dotnet.streaming-transcription.0.body.sse": {
    strict: mismatch("transcript.text.done"),
    compatible: ok,
  },
}

/** The event types each protocol knows in compatible mode; others are delivered as `unknown`. */
const KNOWN: Record<Api, ReadonlyArray<string>> = {
  responses: [
    "response.created",
    "response.queued",
    "response.in_progress",
    "response.completed",
    "response.incomplete",
    "response.failed",
    "response.output_item.added",
    "response.output_item.done",
    "response.content_part.added",
    "response.content_part.done",
    "response.output_text.delta",
    "response.output_text.done",
    "response.reasoning_text.delta",
    "response.reasoning_text.done",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
  ],
  messages: [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
  ],
  transcriptions: ["transcript.text.delta", "transcript.text.done"],
}

/** The events after which nothing is read. */
const TERMINAL: Record<Api, ReadonlyArray<string>> = {
  responses: ["response.completed", "response.incomplete", "response.failed"],
  messages: ["message_stop"],
  transcriptions: [],
}

type Raw = { readonly type: string; readonly [key: string]: unknown }

/** An independent, simple reading of a capture's events (CRLF read as LF; data lines joined), up to its end. */
const rawEvents = (api: Api, bytes: Uint8Array): Array<Raw> => {
  const out: Array<Raw> = []
  const text = new TextDecoder().decode(bytes).replaceAll("\r\n", "\n")
  for (const block of text.split("\n\n")) {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(l.startsWith("data: ") ? 6 : 5))
      .join("\n")
    if (data === "") continue
    if (data === "[DONE]") break
    const event = JSON.parse(data) as Raw
    out.push(event)
    if (TERMINAL[api].includes(event.type)) break
  }
  return out
}

/** What compatible mode delivers for a raw event. */
const compatibleView = (api: Api, event: Raw): unknown =>
  KNOWN[api].includes(event.type) ? event : { type: "unknown", eventType: event.type, data: event }

const decodeEffect = (api: Api, pieces: ReadonlyArray<Uint8Array>, options: DecodeOptions) => {
  const bytes = pieceStream(pieces)
  const stream =
    api === "responses"
      ? ResponsesStream.decode(bytes, options)
      : api === "messages"
        ? MessagesStream.decode(bytes, options)
        : TranscriptionStream.decode(bytes, options)
  return runAll(stream as Stream.Stream<unknown, unknown>)
}

const decodeFacade = (api: Api, pieces: ReadonlyArray<Uint8Array>, options: DecodeOptions) => {
  const body = testBody(pieces).body
  return collect<unknown>(
    api === "responses"
      ? decodeResponsesStream(body, options)
      : api === "messages"
        ? decodeMessagesStream(body, options)
        : decodeTranscriptionStream(body, options),
  )
}

const listCaptures = (): Array<string> =>
  (["messages", "responses", "transcriptions"] as const).flatMap((api) =>
    readdirSync(`${API_CAPTURES}${api}`)
      .filter((f) => f.endsWith(".sse"))
      .map((f) => `${api}/${f}`),
  )

const checkOutcome = (
  label: string,
  got: { items: Array<unknown>; error: unknown },
  outcome: Outcome,
  raw: Array<Raw>,
  expected: Array<unknown>,
): void => {
  if (outcome.ok) {
    assert.equal(got.error, undefined, `${label}: ${String(got.error)}`)
    assert.deepEqual(got.items, expected, label)
    return
  }
  const at = raw.findIndex((e) => e.type === outcome.at && (outcome.error === "ApiError" || !got.items.includes(e)))
  if (outcome.error === "ApiError") {
    assert.ok(got.error instanceof ApiError, `${label}: expected ApiError, got ${String(got.error)}`)
    assert.equal(got.error.retryable, outcome.retryable, label)
    assert.equal(got.error.eventIndex, at, label)
  } else {
    assert.ok(got.error instanceof ChunkDecodeError, `${label}: expected SchemaMismatch, got ${String(got.error)}`)
    assert.equal(got.error.reason, "SchemaMismatch", label)
    assert.ok(got.error.message.includes(`"${outcome.at}"`), `${label}: the error names the type: ${got.error.message}`)
    assert.equal(raw[got.error.eventIndex]?.type, outcome.at, label)
  }
  // Every whole event before the failing one was delivered.
  const index = (got.error as ApiError | ChunkDecodeError).eventIndex
  assert.deepEqual(got.items, expected.slice(0, index), label)
}

/** Declares the suite. */
const apiCaptureSuite = (runtime: string): void => {
  describe.skipIf(sharedSkip("reference/api-captures/"))(
    `real Responses, Messages and transcription streams (${runtime})`,
    () => {
      it("lists what every capture must decode to", () => {
        requireShared("reference/api-captures/")
        assert.deepEqual(listCaptures().sort(), Object.keys(EXPECTED).sort())
      })

      // Absent (skipped, or required and failing), the expected list names the tests.
      for (const file of existsSync(API_CAPTURES) ? listCaptures() : Object.keys(EXPECTED).sort()) {
        const expected = EXPECTED[file]
        if (expected === undefined) continue
        const api = file.slice(0, file.indexOf("/")) as Api
        for (const validation of ["strict", "compatible"] as const) {
          const outcome = expected[validation]
          it(`decodes ${file} in ${validation} mode ${outcome.ok ? "to the events it holds" : `to ${outcome.error} at its first ${outcome.at}`}, whole and cut into 1-byte and 7-byte reads`, async () => {
            const bytes = new Uint8Array(readFileSync(`${API_CAPTURES}${file}`))
            const raw = rawEvents(api, bytes)
            const view = validation === "compatible" ? raw.map((e) => compatibleView(api, e)) : raw
            const options: DecodeOptions = { validation }
            for (const [cut, pieces] of [
              ["whole", [bytes]],
              ["1-byte reads", cutEvery(bytes, 1)],
              ["7-byte reads", cutEvery(bytes, 7)],
            ] as const) {
              checkOutcome(`Effect, ${cut}`, await decodeEffect(api, pieces, options), outcome, raw, view)
              checkOutcome(`facade, ${cut}`, await decodeFacade(api, pieces, options), outcome, raw, view)
            }
          })
        }
      }

      for (const file of (existsSync(API_CAPTURES) ? listCaptures() : Object.keys(EXPECTED)).filter(
        (f) => EXPECTED[f]?.compatible.ok === true,
      )) {
        const api = file.slice(0, file.indexOf("/")) as Api
        it(`folds ${file} into what its events say`, async () => {
          const bytes = new Uint8Array(readFileSync(`${API_CAPTURES}${file}`))
          const raw = rawEvents(api, bytes)
          const options = { validation: "compatible" } as const
          if (api === "responses") {
            const folded = await Effect.runPromise(
              ResponsesStream.accumulate(ResponsesStream.decode(Stream.make(bytes), options)),
            )
            checkResponse(folded, raw)
          } else if (api === "messages") {
            const folded = await Effect.runPromise(
              MessagesStream.accumulate(MessagesStream.decode(Stream.make(bytes), options)),
            )
            checkMessage(folded, raw)
          } else {
            const folded = await Effect.runPromise(
              TranscriptionStream.accumulate(TranscriptionStream.decode(Stream.make(bytes), options)),
            )
            const done = raw.find((e) => e.type === "transcript.text.done")
            assert.equal(folded.text, done?.text)
            assert.deepEqual(folded.usage, done?.usage)
            const deltas = raw.filter((e) => e.type === "transcript.text.delta").map((e) => e.delta as string)
            if (deltas.length > 0) assert.equal(folded.text, deltas.join(""))
          }
        })
      }
    },
  )
}

/** The final response against the raw events: text per message, arguments per call, and the last snapshot. */
const checkResponse = (folded: ResponsesStream.Response, raw: Array<Raw>): void => {
  const last = raw.at(-1) as unknown as { response: { id: string; status: string; usage: unknown } }
  assert.equal(folded.id, last.response.id)
  assert.equal(folded.status, last.response.status)
  assert.deepEqual(folded.usage, last.response.usage)
  const deltas = raw.filter((e) => e.type === "response.output_text.delta")
  assert.equal(folded.output_text, deltas.map((e) => e.delta as string).join(""))
  const addedItems = raw.filter((e) => e.type === "response.output_item.added")
  assert.equal(folded.output.length, addedItems.length)
  for (const done of raw.filter((e) => e.type === "response.function_call_arguments.done")) {
    const item = folded.output[done.output_index as number]
    const pieces = raw.filter(
      (e) => e.type === "response.function_call_arguments.delta" && e.output_index === done.output_index,
    )
    assert.equal(pieces.map((e) => e.delta as string).join(""), done.arguments)
    assert.equal(item?.arguments, done.arguments)
    assert.deepEqual(item?.parsed_arguments, JSON.parse(done.arguments as string))
  }
}

/** The final message against the raw events: each block's text, thinking, signature and tool input. */
const checkMessage = (folded: MessagesStream.Message, raw: Array<Raw>): void => {
  const starts = raw.filter((e) => e.type === "content_block_start")
  assert.equal(folded.content.length, starts.length)
  for (const start of starts) {
    const index = start.index as number
    const block = folded.content[index]
    const deltas = raw
      .filter((e) => e.type === "content_block_delta" && e.index === index)
      .map((e) => e.delta as Record<string, string>)
    const joined = (type: string, key: string) =>
      deltas
        .filter((d) => d.type === type)
        .map((d) => d[key])
        .join("")
    const first = start.content_block as Record<string, unknown>
    assert.equal(block?.type, first.type)
    if (first.type === "text") assert.equal(block?.text, (first.text as string) + joined("text_delta", "text"))
    if (first.type === "thinking") {
      assert.equal(block?.thinking, (first.thinking as string) + joined("thinking_delta", "thinking"))
      assert.equal(
        block?.signature,
        ((first.signature as string | undefined) ?? "") + joined("signature_delta", "signature"),
      )
    }
    const json = joined("input_json_delta", "partial_json")
    if (json.length > 0) assert.deepEqual(block?.input, JSON.parse(json))
  }
  const delta = raw.filter((e) => e.type === "message_delta").at(-1) as unknown as { delta: { stop_reason: string } }
  assert.equal(folded.stop_reason, delta.delta.stop_reason)
}

apiCaptureSuite(RUNTIME)
