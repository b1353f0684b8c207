// Test helpers of the samples (the Deno and Bun apps, the Worker): a POST to the app, and its events read with the
// harness's SSE parser (independent of the code under test). Web standards only.
import { parseSse, readBody } from "@friendli-stream/test-harness/fixtures"

/** `POST /v1/stream` with a JSON body (a string is sent as it is). */
export const post = (url: string, body: unknown, signal?: AbortSignal): Promise<Response> =>
  fetch(`${url}/v1/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  })

/** The `data:` of every event of a response body (the harness's SSE parser), and how many reads the body came in. */
export const readSse = async (res: Response): Promise<{ events: Array<string>; reads: number }> => {
  const { pieces, text } = await readBody(res)
  return { events: parseSse(text).events.map((e) => e.data), reads: pieces.length }
}

/** The text of choice 0 over every chunk. */
export const textOf = (events: ReadonlyArray<string>): string =>
  events
    .filter((e) => e !== "[DONE]")
    .map((e) => (JSON.parse(e) as { choices: Array<{ text?: string }> }).choices[0]?.text ?? "")
    .join("")
