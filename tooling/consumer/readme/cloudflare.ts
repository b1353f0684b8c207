// The install check of packages/cloudflare/README.md: after its install commands, a completion streamed with
// @friendli-stream/cloudflare from the mock of @friendli-stream/testing served in-process.
import { createClient } from "@friendli-stream/cloudflare"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

const token = "flp_install_check"
const mock = await serveNode(createMockFriendli({ tokens: [token] }))
const client = createClient({ token, baseURL: `${mock.url}/serverless` })
try {
  const stream = client.completions.stream({
    model: "meta-llama-3.1-8b-instruct",
    prompt: "Say this is a test",
    max_tokens: 16,
  })
  for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.text ?? "")
  process.stdout.write("\n")
} finally {
  await client.close()
  await mock.close()
}
