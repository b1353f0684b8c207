// packages/resumable/README's example, as a consumer project writes it: a resumable stream served in-process from
// the mock Friendli endpoint of @friendli-stream/testing, read until a drop after three events, then resumed with
// Last-Event-ID. Prints the text of the whole answer. Run by tooling/scripts/consumer-check.mjs.
import { createClient } from "@friendli-stream/node"
import { ResumableHandler } from "@friendli-stream/resumable"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

const mock = await serveNode(createMockFriendli())
const client = createClient({ deployment: "container", baseURL: mock.url })
const streams = ResumableHandler.toWebHandler({
  start: async (request, { signal }) => {
    const { prompt } = (await request.json()) as { prompt: string }
    return client.completions.stream({ model: "meta-llama-3.1-8b-instruct", prompt, max_tokens: 32 }, { signal })
  },
})
const server = await serveNode(streams.fetch)

/** The `id:` and `data:` of each whole event in `text`. */
const events = (text: string) =>
  text
    .split("\n\n")
    .slice(0, -1)
    .map((block) => ({
      id: /^id: (.*)$/m.exec(block)?.[1] ?? "",
      data: /^data: (.*)$/m.exec(block)?.[1] ?? "",
    }))

try {
  const controller = new AbortController()
  const first = await fetch(`${server.url}/v1/stream`, {
    method: "POST",
    body: JSON.stringify({ prompt: "Once upon a time" }),
    signal: controller.signal,
  })
  const location = new URL(first.headers.get("location") ?? "", server.url)
  // read three events, then drop the connection
  const reader = (first.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ""
  while (events(text).length < 3) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  controller.abort()
  const head = events(text).slice(0, 3)
  const rest = events(await (await fetch(location, { headers: { "last-event-id": head.at(-1)?.id ?? "" } })).text())
  for (const { data } of [...head, ...rest]) {
    if (data !== "[DONE]")
      process.stdout.write((JSON.parse(data) as { choices: Array<{ text?: string }> }).choices[0]?.text ?? "")
  }
  process.stdout.write("\n")
} finally {
  await streams.close()
  await client.close()
  await server.close()
  await mock.close()
}
