// Shared by the capture suites (captures.test.ts, peer-captures.test.ts).

/** An independent, simple reading of the chunks a capture holds (no CR in these captures): the expected output. */
export const referenceChunks = (bytes: Uint8Array): Array<unknown> => {
  const out: Array<unknown> = []
  for (const block of new TextDecoder().decode(bytes).split("\n\n")) {
    const lines = block.split("\n")
    if (lines.some((l) => l === "event: error")) break
    const data = lines
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(l.startsWith("data: ") ? 6 : 5))
      .join("\n")
    if (data === "") continue
    if (data.trim() === "[DONE]") break
    const chunk = JSON.parse(data) as {
      error?: unknown
      choices?: Array<{ finish_reason?: unknown; delta?: { reasoning?: unknown; reasoning_content?: unknown } }>
    }
    if (chunk.error != null) break
    for (const c of chunk.choices ?? []) {
      if (c.finish_reason === "" || c.finish_reason === "null") c.finish_reason = null
      // Compatible mode reads other servers' `reasoning` as `reasoning_content`.
      const d = c.delta
      if (d != null && d.reasoning_content == null && typeof d.reasoning === "string") d.reasoning_content = d.reasoning
    }
    out.push(chunk)
  }
  return out
}
