// The install check of packages/effect-ai/README.md: its example against the mock, after its install commands.
import { FriendliClient } from "@friendli-stream/client"
import { FriendliLanguageModel } from "@friendli-stream/effect-ai"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"
import { Effect, Layer, Stream } from "effect"
import { LanguageModel } from "effect/ai"

const server = await serveNode(createMockFriendli())
try {
  const Friendli = FriendliLanguageModel.layer({
    model: "meta-llama-3.1-8b-instruct",
    fields: { max_tokens: 16 },
  }).pipe(
    Layer.provide(FriendliClient.layer({ token: "test", baseURL: `${server.url}/serverless` })),
    Layer.provide(FriendliClient.fetchHttpClient()),
  )
  const program = LanguageModel.streamText({ prompt: "Write a haiku about sockets." }).pipe(
    Stream.runForEach((part) => Effect.sync(() => part.type === "text-delta" && process.stdout.write(part.delta))),
  )
  await Effect.runPromise(program.pipe(Effect.provide(Friendli)))
  process.stdout.write("\n")
} finally {
  await server.close()
}
