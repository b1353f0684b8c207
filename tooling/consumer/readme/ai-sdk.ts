// The install check of packages/ai-sdk/README.md: its example against the mock, after its install commands.

import { createFriendli } from "@friendli-stream/ai-sdk"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"
import { streamText } from "ai"

const server = await serveNode(createMockFriendli())
try {
  const friendli = createFriendli({ token: "test", baseURL: `${server.url}/serverless` })
  const result = streamText({ model: friendli("any-model"), prompt: "Tell me about the sea", maxOutputTokens: 16 })
  for await (const text of result.textStream) process.stdout.write(text)
  process.stdout.write("\n")
} finally {
  await server.close()
}
