/**
 * Embeddings as the providers return them: an answer's vectors in input order, as numbers (a `base64` answer's
 * little-endian float32 bytes decoded), and its token count.
 */
import type * as Core from "@friendli-stream/core"

/**
 * A vector as Friendli sent it (floats, or little-endian float32 bytes in base64) as numbers.
 *
 * @since 0.3.0
 */
export const vectorOf = (embedding: ReadonlyArray<number> | string): Array<number> => {
  if (typeof embedding !== "string") return [...embedding]
  const binary = (globalThis as unknown as { atob(data: string): string }).atob(embedding)
  const bytes = new Uint8Array(binary.length - (binary.length % 4))
  for (let i = 0; i < bytes.length; i++) bytes[i] = binary.charCodeAt(i)
  return Array.from(new Float32Array(bytes.buffer))
}

/**
 * The vectors of an embeddings answer, ordered by their `index` (the inputs' order), and its prompt tokens.
 *
 * @since 0.3.0
 */
export const embeddingsOf = (
  answer: Core.DedicatedEmbeddingsSuccess,
): { readonly vectors: Array<Array<number>>; readonly tokens: number } => ({
  vectors: [...answer.data].sort((a, b) => a.index - b.index).map((d) => vectorOf(d.embedding)),
  tokens: answer.usage.prompt_tokens,
})
