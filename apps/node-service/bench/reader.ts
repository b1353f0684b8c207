// One reader of the load run (bench/load.ts): starts a stream with `POST`, reads its server-sent events, and leaves
// after some of them or reads slowly, as asked.

/** What a reader got. */
export interface StreamResult {
  readonly status: number
  /** The body of an answer other than 200 (its first bytes), else `""`. */
  readonly text: string
  /** The stream's own URL path (`Location`). */
  readonly location: string
  /** Milliseconds from the request to the first event that is not the end. */
  readonly ttft: number | undefined
  /** Events read (the end included). */
  readonly events: number
  /** `"[DONE]"`, `"error"` (an `event: error`), or `undefined` when the reader left or the body ended without one. */
  readonly end: "[DONE]" | "error" | undefined
}

const decoder = new TextDecoder()
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * Starts a stream (`POST url` with `body`) and reads it to its end; with `leaveAfter`, aborts the connection after
 * that many events; with `pauseMs`, waits that long after each read.
 */
export const readStream = async (
  url: string,
  options: { readonly body: string; readonly leaveAfter?: number | undefined; readonly pauseMs?: number | undefined },
): Promise<StreamResult> => {
  const abort = new AbortController()
  const startedAt = performance.now()
  const res = await fetch(url, { method: "POST", body: options.body, signal: abort.signal })
  const location = res.headers.get("location") ?? ""
  if (res.status !== 200) {
    return { status: res.status, text: await res.text(), location, ttft: undefined, events: 0, end: undefined }
  }
  const reader = res.body!.getReader()
  let buffer = ""
  let events = 0
  let ttft: number | undefined
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { status: 200, text: "", location, ttft, events, end: undefined }
    buffer += decoder.decode(value, { stream: true })
    let at = buffer.indexOf("\n\n")
    while (at >= 0) {
      const block = buffer.slice(0, at)
      buffer = buffer.slice(at + 2)
      at = buffer.indexOf("\n\n")
      if (!block.includes("data:")) continue // a comment
      events++
      const end = block.includes("\ndata: [DONE]") || block.startsWith("data: [DONE]") ? "[DONE]" : undefined
      const error = /^event: error$/m.test(block) ? "error" : undefined
      if (end !== undefined || error !== undefined) {
        await reader.cancel().catch(() => {})
        return { status: 200, text: "", location, ttft, events, end: end ?? error }
      }
      ttft ??= performance.now() - startedAt
      if (options.leaveAfter !== undefined && events >= options.leaveAfter) {
        abort.abort()
        await reader.cancel().catch(() => {})
        return { status: 200, text: "", location, ttft, events, end: undefined }
      }
    }
    if (options.pauseMs !== undefined) await sleep(options.pauseMs)
  }
}
