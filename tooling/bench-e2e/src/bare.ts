/**
 * The floor every ratio is measured against: a bare loop over a response body (a reader, a `TextDecoder`,
 * `indexOf("\n\n")`, `JSON.parse`, no validation), as a user would write without any library. Shared by the Node,
 * Deno and Bun children.
 */

/** Calls `onItem` with every parsed `data:` JSON of an SSE text stream fed piece by piece; `[DONE]` is skipped. */
export const makeSplitter = (onItem: (item: unknown) => void) => {
  const decoder = new TextDecoder()
  let buffer = ""
  return (bytes: Uint8Array): void => {
    buffer += decoder.decode(bytes, { stream: true })
    let end = buffer.indexOf("\n\n")
    while (end !== -1) {
      const event = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      if (event.startsWith("data: ") && event !== "data: [DONE]") onItem(JSON.parse(event.slice(6)))
      end = buffer.indexOf("\n\n")
    }
  }
}

/** POSTs the chat request with `fetch` and reads the body with the bare loop. */
export const bareFetch = async (url: string, body: string, onItem: (item: unknown) => void): Promise<void> => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })
  if (response.body === null) throw new Error(`no body from ${url} (${response.status})`)
  const reader = response.body.getReader()
  const push = makeSplitter(onItem)
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    push(value)
  }
}
