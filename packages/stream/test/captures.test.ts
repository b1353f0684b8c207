/**
 * Real captures (../shared/reference/captures, outside the repository: read at run time, never copied): every SSE
 * body decodes in compatible mode to the chunks it holds, or fails with the typed error it deserves. Files that hold
 * JSON arrays or one JSON payload per line are framed as SSE first. Shared by the Node, Deno and Bun suites
 * (node:fs works on all three; workerd has no file access).
 */
import assert from "node:assert/strict"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import { requireShared, sharedPath, sharedSkip } from "@friendli-stream/test-harness/shared"
import * as Stream from "effect/Stream"
import {
  ApiError,
  ChatCompletionStream,
  ChunkDecodeError,
  CompletionStream,
  type DecodeOptions,
  decodeChatCompletionStream,
  decodeCompletionStream,
  Sse,
  StreamTruncated,
} from "../src/index.ts"
import { referenceChunks } from "./reference-chunks.ts"
import { cutEvery, pieceStream, RUNTIME, runAll, testBody } from "./support.ts"

/** The captures, in the team's shared/ folder beside the repository. */
const CAPTURES = sharedPath("reference/captures/")

type Kind = "chat" | "completion"
type Outcome =
  | { readonly ok: true }
  | {
      readonly ok: false
      readonly error: "ApiError" | "StreamTruncated" | "SchemaMismatch"
      readonly retryable?: boolean
    }
  | { readonly ok: "withoutDone" }

const ok: Outcome = { ok: true }

/** What each capture must decode to. A capture not listed here fails the suite: say what it deserves. */
const EXPECTED: Record<string, { readonly kind: Kind; readonly outcome: Outcome }> = {
  "ai-gateway/chat-streaming-detailed-usage.0.body.sse": { kind: "chat", outcome: ok },
  "ai-gateway/completion-streaming-usage.0.body.sse": { kind: "completion", outcome: ok },
  "ai-gateway/completion-streaming.0.body.sse": { kind: "completion", outcome: ok },
  // Cerebras sends no [DONE]: truncated by default, whole with requireDone: false.
  "huggingface_hub/TestInferenceClient.test_chat_completion_with_stream_cerebras_conversational.1.body.sse": {
    kind: "chat",
    outcome: { ok: "withoutDone" },
  },
  "huggingface_hub/TestInferenceClient.test_chat_completion_with_stream_hf-inference_conversational.1.body.sse": {
    kind: "chat",
    outcome: ok,
  },
  "huggingface_hub/TestInferenceClient.test_chat_completion_with_stream_novita_conversational.1.body.sse": {
    kind: "chat",
    outcome: ok,
  },
  // TGI's native /generate_stream is not an OpenAI-compatible stream: its events are not completion chunks.
  "huggingface_hub/TestTextGenerationClientVCR.test_generate_stream_with_details.1.body.sse": {
    kind: "completion",
    outcome: { ok: false, error: "SchemaMismatch" },
  },
  "openai-python/569c877e69429d4cbc1577d2cd6dd33878095c68badc6b6654a69769b391a1c1.bin": { kind: "chat", outcome: ok },
  "openai-python/83b060bae42eb41c4f1edbb7c1542b954b37d9dfd1910b964ddebc9677e6ae85.bin": { kind: "chat", outcome: ok },
  "openai-python/a491adda08c3d4fde95f5b2ee3f60f7f745f1a56d82e62f58031cc2add502380.bin": { kind: "chat", outcome: ok },
  "openai-python/f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin": { kind: "chat", outcome: ok },
  "pydantic-ai/test_crusoe_model_streaming.0.body.sse": { kind: "chat", outcome: ok },
  "pydantic-ai/test_groq_model_web_search_tool_stream.0.body.sse": { kind: "chat", outcome: ok },
  "pydantic-ai/test_openai_moderation_stream.0.body.sse": { kind: "chat", outcome: ok },
  // A chunk carrying an error member (code 400) next to its choices.
  "pydantic-ai/test_openrouter_stream_error.0.body.sse": {
    kind: "chat",
    outcome: { ok: false, error: "ApiError", retryable: false },
  },
  "pydantic-ai/test_run_stream_sync_streams_real_model.0.body.sse": { kind: "chat", outcome: ok },
  "pydantic-ai/test_run_stream_sync_streams_real_model.1.body.sse": { kind: "chat", outcome: ok },
  "pydantic-ai/test_snowflake_model_streaming.0.body.sse": { kind: "chat", outcome: ok },
  // Groq ends with `event: error` (status_code 400) and no [DONE].
  "pydantic-ai/test_tool_use_failed_error_streaming.0.body.sse": {
    kind: "chat",
    outcome: { ok: false, error: "ApiError", retryable: false },
  },
  "pydantic-ai/test_tool_use_failed_error_streaming.1.body.sse": { kind: "chat", outcome: ok },
  "pydantic-ai/test_tool_use_failed_error_streaming.2.body.sse": { kind: "chat", outcome: ok },
  "pydantic-ai/test_zai_thinking_stream.0.body.sse": { kind: "chat", outcome: ok },
  "text-generation-inference/test_flash_llama_completion_many_prompts_stream.json": { kind: "completion", outcome: ok },
  "text-generation-inference/test_flash_llama_completion_stream_usage.json": { kind: "chat", outcome: ok },
  // Ends with "data: [DONE]\n", without the blank line: still a proper end.
  "vercel-ai/anthropic-fallback-tool-call.sse": { kind: "chat", outcome: ok },
  "vercel-ai/azure-model-router.1.chunks.txt": { kind: "chat", outcome: ok },
  "vercel-ai/deepseek-tool-call.chunks.txt": { kind: "chat", outcome: ok },
  "vercel-ai/openai-completion-text.chunks.txt": { kind: "completion", outcome: ok },
}

const isBody = (file: string) =>
  file.endsWith(".sse") || file.endsWith(".bin") || file.endsWith(".chunks.txt") || file.endsWith(".json")

const listCaptures = (): Array<string> =>
  readdirSync(CAPTURES, { recursive: true, encoding: "utf8" })
    .map((f) => f.split("\\").join("/"))
    .filter(isBody)
    .sort()

/** Frames JSON arrays and one-payload-per-line files as SSE; SSE bodies are returned as they are. */
const sseBytes = (file: string, raw: Uint8Array): Uint8Array => {
  const text = new TextDecoder().decode(raw)
  let payloads: Array<string> | undefined
  if (file.endsWith(".json")) payloads = (JSON.parse(text) as Array<unknown>).map((c) => JSON.stringify(c))
  else if (file.endsWith(".chunks.txt")) payloads = text.split("\n").filter((l) => l.trim() !== "")
  if (payloads === undefined) return raw
  return new TextEncoder().encode(`${payloads.map((p) => `data: ${p}\n\n`).join("")}data: [DONE]\n\n`)
}

const decodeEffect = (kind: Kind, pieces: Array<Uint8Array>, options: DecodeOptions) =>
  kind === "chat"
    ? runAll(ChatCompletionStream.decode(pieceStream(pieces), options) as Stream.Stream<unknown, unknown>)
    : runAll(CompletionStream.decode(pieceStream(pieces), options) as Stream.Stream<unknown, unknown>)

const decodeFacade = (kind: Kind, pieces: Array<Uint8Array>, options: DecodeOptions) =>
  collect<unknown>(
    kind === "chat"
      ? decodeChatCompletionStream(testBody(pieces).body, options)
      : decodeCompletionStream(testBody(pieces).body, options),
  )

const ERRORS = { ApiError, StreamTruncated, SchemaMismatch: ChunkDecodeError } as const

/** Declares the capture suite. */
const captureSuite = (runtime: string): void => {
  const skip = sharedSkip("reference/captures/")
  describe.skipIf(skip)(`real captures (${runtime})`, () => {
    it("lists what every capture must decode to", () => {
      requireShared("reference/captures/")
      assert.deepEqual(listCaptures(), Object.keys(EXPECTED).sort())
    })

    // Absent (skipped, or required and failing), the expected list names the tests.
    for (const file of existsSync(CAPTURES) ? listCaptures() : Object.keys(EXPECTED).sort()) {
      const expected = EXPECTED[file]
      if (expected === undefined) continue
      it(`decodes ${file} in compatible mode ${expected.outcome.ok === true ? "to the chunks it holds" : "as it deserves"}`, async () => {
        const bytes = sseBytes(file, new Uint8Array(readFileSync(`${CAPTURES}${file}`)))
        const reference = referenceChunks(bytes)
        const options: DecodeOptions = { validation: "compatible" }
        for (const pieces of [[bytes], cutEvery(bytes, 7), cutEvery(bytes, 1024)]) {
          const effect = await decodeEffect(expected.kind, pieces, options)
          const facade = await decodeFacade(expected.kind, pieces, options)
          assert.deepEqual(facade.items, effect.items)
          const outcome: Outcome = expected.outcome
          if (outcome.ok === true) {
            assert.equal(effect.error, undefined, String(effect.error))
            assert.equal(facade.error, undefined)
            assert.deepEqual(effect.items, reference)
          } else if (outcome.ok === "withoutDone") {
            assert.ok(effect.error instanceof StreamTruncated)
            assert.equal(effect.error.midEvent, false)
            assert.deepEqual(effect.items, reference)
            const lenient = await decodeEffect(expected.kind, pieces, { ...options, requireDone: false })
            assert.equal(lenient.error, undefined)
            assert.deepEqual(lenient.items, reference)
          } else {
            const type: (typeof ERRORS)[keyof typeof ERRORS] = ERRORS[outcome.error]
            assert.ok(effect.error instanceof type, `expected ${outcome.error}, got ${String(effect.error)}`)
            assert.ok(facade.error instanceof type)
            if (outcome.error === "SchemaMismatch")
              assert.equal((effect.error as ChunkDecodeError).reason, "SchemaMismatch")
            if (effect.error instanceof ApiError) {
              assert.equal(effect.error.retryable, outcome.retryable)
              assert.ok(effect.error.message.length > 0)
            }
            // Every whole chunk before the failing event was delivered.
            const at: number = (effect.error as ApiError | ChunkDecodeError).eventIndex
            assert.deepEqual(effect.items, reference.slice(0, at))
          }
        }
        // The raw events are there whatever the outcome (e.g. TGI's `data:` without a space).
        const events = await runAll(Sse.decode(Stream.make(bytes)))
        assert.equal(events.error, undefined)
        assert.ok(events.items.length > 0)
      })
    }
  })
}

captureSuite(RUNTIME)
