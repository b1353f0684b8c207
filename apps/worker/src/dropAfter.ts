/**
 * The browser test's hook (only with the binding `TEST_HOOKS` set to `"true"`): `?dropAfter=k` ends each event
 * stream after its k-th event, as a dropped connection would, so that the page has to resume.
 */

/** The reconnection time the hook sets (an SSE `retry:` field), so that the browser resumes at once, not in 3 s. */
const RETRY_MS = 100

/** `response` with its body ended after `events` events (blocks with a `data:` line), preceded by `retry: 100`. */
export const dropAfter = (response: Response, events: number): Response => {
  if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response
  let buffer = ""
  let seen = 0
  const cut = new TransformStream<string, string>({
    start(controller) {
      controller.enqueue(`retry: ${RETRY_MS}\n\n`)
    },
    transform(text, controller) {
      buffer += text
      let end = buffer.indexOf("\n\n")
      while (end >= 0) {
        const block = buffer.slice(0, end + 2)
        buffer = buffer.slice(end + 2)
        controller.enqueue(block)
        if (/^data:/m.test(block) && ++seen >= events) {
          controller.terminate()
          return
        }
        end = buffer.indexOf("\n\n")
      }
    },
  })
  const body = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(cut).pipeThrough(new TextEncoderStream())
  return new Response(body, { status: response.status, headers: response.headers })
}
