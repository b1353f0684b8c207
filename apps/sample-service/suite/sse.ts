// Test helpers of the samples (the Deno and Bun apps, the Worker): a POST to the app, and a plain SSE reader
// (independent of the code under test). Web standards only.

/** `POST /v1/stream` with a JSON body (a string is sent as it is). */
export const post = (url: string, body: unknown, signal?: AbortSignal): Promise<Response> =>
  fetch(`${url}/v1/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  })

/** The `data:` of every event of a response body, and how many reads the body came in. */
export const readSse = async (res: Response): Promise<{ events: Array<string>; reads: number }> => {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ""
  let reads = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    reads++
    text += decoder.decode(value, { stream: true })
  }
  const events = text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== "")
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n"),
    )
  return { events, reads }
}

/** The text of choice 0 over every chunk. */
export const textOf = (events: ReadonlyArray<string>): string =>
  events
    .filter((e) => e !== "[DONE]")
    .map((e) => (JSON.parse(e) as { choices: Array<{ text?: string }> }).choices[0]?.text ?? "")
    .join("")
