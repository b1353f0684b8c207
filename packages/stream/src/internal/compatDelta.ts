/**
 * Compatible mode's reading of chat deltas that other servers shape differently from Friendli, applied in place to
 * the parsed JSON before the compatible schema checks it:
 *
 * - Mistral sends `delta.content` as an array of typed parts (`[{"type": "thinking", "thinking": [{"type": "text",
 *   "text": "…"}]}, {"type": "text", "text": "…"}]`), as the openai SDK and the AI SDK both read it. The text parts,
 *   joined, become `content` (`null` when there is none); the thinking parts' texts, joined, are appended to
 *   `reasoning_content`; the array itself is kept as `content_parts`, so that parts of other types (e.g. Mistral's
 *   `reference`) are not lost. A part of a known type with the wrong shape leaves the delta as it is, for the schema
 *   to explain.
 * - `delta.reasoning` (OpenRouter, Groq, vLLM and others) is Friendli's `delta.reasoning_content`: it is copied there
 *   when the delta has no `reasoning_content` of its own (the original field is kept).
 */
import { isRecord, type Json } from "./record.ts"

/** The text of a thinking part's `thinking`: a string, or text parts (other parts, e.g. references, skipped). */
const thinkingText = (thinking: unknown): string | undefined => {
  if (typeof thinking === "string") return thinking
  if (!Array.isArray(thinking)) return undefined
  let text = ""
  for (const part of thinking) {
    if (!isRecord(part)) return undefined
    if (part.type !== "text") continue
    if (typeof part.text !== "string") return undefined
    text += part.text
  }
  return text
}

/** The text and the reasoning an array of content parts holds, or `undefined` when a known part is malformed. */
const readParts = (
  parts: ReadonlyArray<unknown>,
): { readonly text: string | null; readonly reasoning: string | null } | undefined => {
  let text: string | null = null
  let reasoning: string | null = null
  for (const part of parts) {
    if (!isRecord(part)) return undefined
    if (part.type === "text") {
      if (typeof part.text !== "string") return undefined
      text = (text ?? "") + part.text
    } else if (part.type === "thinking") {
      const thought = thinkingText(part.thinking)
      if (thought === undefined) return undefined
      reasoning = (reasoning ?? "") + thought
    }
  }
  return { text, reasoning }
}

/** Rewrites one delta of a parsed chat chunk in place (see the module doc). */
export const normalizeCompatibleDelta = (delta: Json): void => {
  const content = delta.content
  if (Array.isArray(content)) {
    const read = readParts(content)
    if (read !== undefined) {
      delta.content = read.text
      delta.content_parts = content
      if (read.reasoning !== null) {
        const before = delta.reasoning_content
        delta.reasoning_content = (typeof before === "string" ? before : "") + read.reasoning
      }
    }
  }
  const reasoning = delta.reasoning
  if (typeof reasoning === "string" && delta.reasoning_content == null) delta.reasoning_content = reasoning
}
