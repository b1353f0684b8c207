/**
 * One Deno or Bun row in its own process: the runtime's bare `fetch` loop, or our Promise client from its adapter
 * (`@friendli-stream/deno` / `@friendli-stream/bun`) on the runtime's own `fetch`.
 */
import process from "node:process"
import { bareFetch } from "./bare.ts"
import { CHAT_REQUEST } from "./events.ts"
import { type Row, runChild } from "./measure.ts"

interface Adapter {
  createClient(options: { baseURL: string; token: string }): {
    chat: { stream(request: typeof CHAT_REQUEST): AsyncIterable<unknown> }
  }
}

const adapter: Adapter =
  "Deno" in globalThis ? await import("@friendli-stream/deno") : await import("@friendli-stream/bun")
const BODY = JSON.stringify({ ...CHAT_REQUEST, stream: true })

const client = (): Row => {
  const clients = new Map<string, ReturnType<Adapter["createClient"]>>()
  return async (base, onItem) => {
    let c = clients.get(base)
    if (c === undefined) {
      c = adapter.createClient({ baseURL: base, token: "bench-token" })
      clients.set(base, c)
    }
    for await (const chunk of c.chat.stream(CHAT_REQUEST)) onItem(chunk)
  }
}

await runChild(
  {
    "bare fetch loop": () => (base, onItem) => bareFetch(`${base}/v1/chat/completions`, BODY, onItem),
    "Promise client": client,
  },
  process.argv.slice(2),
)
