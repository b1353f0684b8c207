// packages/node/README's Effect example, as a consumer project writes it, against the mock Friendli endpoint of
// @friendli-stream/testing served in-process (container deployment: the mock's root URL, no token).
// Run by tooling/scripts/consumer-check.mjs from a temp project that installed the packed packages.
import { FriendliClient, layer } from "@friendli-stream/node"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"
import { Effect, Stream } from "effect"

const mock = await serveNode(createMockFriendli())

const program = Effect.gen(function* () {
  const client = yield* FriendliClient.FriendliClient
  yield* client.completions
    .stream({ model: "meta-llama-3.1-8b-instruct", prompt: "Once upon a time", max_tokens: 64 })
    .pipe(
      Stream.take(20), // ending early interrupts the request and closes its connection
      Stream.runForEach((chunk) => Effect.sync(() => process.stdout.write(chunk.choices[0]?.text ?? ""))),
    )
})

try {
  await Effect.runPromise(program.pipe(Effect.provide(layer({ deployment: "container", baseURL: mock.url }))))
  process.stdout.write("\n")
} finally {
  await mock.close()
}
