/**
 * The reasoning text of a chat delta: Friendli's `delta.reasoning_content` (compatible mode copies other servers'
 * `reasoning` and Mistral's thinking parts there). The generated chunk types do not declare the field yet, so this is
 * the one place that reads it: once they do, its body becomes `delta?.reasoning_content ?? undefined`.
 */
export const reasoningOf = (delta: object | null | undefined): string | undefined => {
  const text = (delta as { readonly reasoning_content?: unknown } | null | undefined)?.reasoning_content
  return typeof text === "string" ? text : undefined
}
