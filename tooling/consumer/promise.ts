// The root README's Promise example, as a consumer project writes it, against the mock Friendli endpoint of
// @friendli-stream/testing served in-process (serverless paths, so the bearer token is checked).
// Run by tooling/scripts/consumer-check.mjs from a temp project that installed the packed packages.
import { createClient } from "@friendli-stream/node"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

const token = "flp_consumer_check"
const mock = await serveNode(createMockFriendli({ tokens: [token] }))

const client = createClient({ token, baseURL: `${mock.url}/serverless` })
try {
  const stream = client.completions.stream({
    model: "meta-llama-3.1-8b-instruct",
    prompt: "Say this is a test",
    max_tokens: 32,
    stream_options: { include_usage: true },
  })
  for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.text ?? "")
  process.stdout.write("\n")
} finally {
  await client.close()
  await mock.close()
}
