/**
 * `POST /dedicated/v1/embeddings`: a deterministic vector per input (from its text or its tokens), as floats or as
 * base64 (little-endian float32, what `encoding_format: "base64"` asks for).
 */
import * as Core from "@friendli-stream/core"
import type { ValidationIssue } from "./errors.ts"
import { hashString, seeded } from "./prng.ts"
import { tokenize } from "./tokens.ts"
import { Checker } from "./validate.ts"

/** The length of the mock model's vectors (the description has no `dimensions` field). */
export const EMBEDDING_DIMENSIONS = 16

type Read<A> =
  | { readonly ok: true; readonly body: A }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> }

/** A unit vector of {@link EMBEDDING_DIMENSIONS} floats, the same for the same key on every runtime. */
export const embeddingOf = (key: string): ReadonlyArray<number> => {
  const random = seeded(hashString(key))
  const raw = Array.from({ length: EMBEDDING_DIMENSIONS }, () => random() * 2 - 1)
  const norm = Math.sqrt(raw.reduce((sum, x) => sum + x * x, 0)) || 1
  // rounded to float32, so that the base64 form decodes to exactly these numbers
  return raw.map((x) => Math.fround(x / norm))
}

/** Little-endian float32 bytes as base64. */
export const base64Floats = (vector: ReadonlyArray<number>): string => {
  const bytes = new Uint8Array(new Float32Array(vector).buffer)
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** The embeddings answer of a request, or the issues that make it a 422. */
export const embeddingsBody = (
  body: unknown,
  meta: { readonly id: string; readonly created: number; readonly model: string },
): Read<Core.DedicatedEmbeddingsSuccessEncoded> => {
  const c = new Checker<Core.DedicatedEmbeddingsBody>(body, Core.DedicatedEmbeddingsBody)
  const { input, tokens } = c.request
  const inputs: ReadonlyArray<{ readonly key: string; readonly count: number }> =
    input !== undefined && input !== null
      ? (typeof input === "string" ? [input] : input).map((text) => ({ key: text, count: tokenize(text).length }))
      : tokens !== undefined && tokens !== null
        ? [{ key: `tokens:${tokens.join(",")}`, count: tokens.length }]
        : []
  if (inputs.length === 0 && c.issues.length === 0) {
    c.issue(["input"], "Either `input` or `tokens` field is required", "missing")
  }
  if (Array.isArray(input) && input.length === 0) c.issue(["input"], "Input should not be empty", "too_short", input)
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  const base64 = c.request.encoding_format === "base64"
  const promptTokens = inputs.reduce((sum, i) => sum + i.count, 0)
  return {
    ok: true,
    body: {
      id: meta.id,
      model: meta.model,
      object: "list",
      data: inputs.map((i, index) => {
        const vector = embeddingOf(i.key)
        return { index, object: "embedding", embedding: base64 ? base64Floats(vector) : vector }
      }),
      usage: { prompt_tokens: promptTokens, completion_tokens: 0, total_tokens: promptTokens },
      created: meta.created,
    },
  }
}
