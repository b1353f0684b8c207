/**
 * A program written for the `openai` package, run through our client: the openai SDK's chat streaming example
 * (its README's "Streaming responses"), changed in its import and its constructor line only.
 *
 * ```ts
 * import OpenAI from "openai"                                   // before
 * const client = new OpenAI()                                   // before
 * import { createClient } from "@friendli-stream/node"          // after (or /deno, /bun, /cloudflare)
 * const client = createClient({ apiKey: process.env.FRIENDLI_TOKEN, baseURL: "https://api.friendli.ai/serverless/v1" })
 * ```
 *
 * To run on every runtime, the adapter's `createClient` and the constructor's values come in as arguments, the
 * model is one the mock knows, and `process.stdout` is `stdout` (workerd has none); the rest is the example's.
 *
 * @since 0.3.0
 */
import type { PromiseClient } from "@friendli-stream/client"

/** What the program needs from where it runs. */
export interface ProgramEnvironment {
  /** The runtime adapter's `createClient`: the changed import. */
  readonly createClient: (options: { readonly apiKey: string; readonly baseURL: string }) => PromiseClient
  readonly apiKey: string
  readonly baseURL: string
  readonly model: string
  readonly stdout: { write(text: string): unknown }
}

/** The openai SDK's streaming example, adapted; resolves once the stream ended. */
export const openaiStreamingExample = async ({ createClient, apiKey, baseURL, model, stdout }: ProgramEnvironment) => {
  const client = createClient({ apiKey, baseURL })

  async function main() {
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: "Say this is a test" }],
      stream: true,
    })
    for await (const chunk of stream) {
      stdout.write(chunk.choices[0]?.delta?.content || "")
    }
  }

  await main()
  await client.close()
}
