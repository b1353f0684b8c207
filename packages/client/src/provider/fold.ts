/**
 * A stream's parts -> a whole response's content, for both providers' non-streamed calls.
 */

/**
 * A stream's parts folded into a whole response's content, in order: the deltas of a run of text or reasoning
 * joined into one `text` / `reasoning` piece (made by `piece`), the parts `keep` accepts kept where they stood,
 * the rest dropped. Both providers fold their own parts with it, so that a whole response says what the stream said.
 *
 * @since 0.3.0
 */
export const foldDeltas = <P extends { readonly type: string }, Q>(
  parts: Iterable<P>,
  keep: (part: P) => boolean,
  piece: (type: "text" | "reasoning", text: string) => Q,
): Array<P | Q> => {
  const out: Array<P | Q> = []
  let text = ""
  let reasoning = ""
  const flush = () => {
    if (reasoning !== "") out.push(piece("reasoning", reasoning))
    if (text !== "") out.push(piece("text", text))
    reasoning = ""
    text = ""
  }
  for (const part of parts) {
    if (part.type === "text-delta") {
      if (reasoning !== "") flush()
      text += (part as unknown as { readonly delta: string }).delta
    } else if (part.type === "reasoning-delta") {
      if (text !== "") flush()
      reasoning += (part as unknown as { readonly delta: string }).delta
    } else if (keep(part)) {
      flush()
      out.push(part)
    }
  }
  flush()
  return out
}
