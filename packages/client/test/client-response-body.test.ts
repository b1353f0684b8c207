// `ResponseBody` decides which byte stream the client reads a streamed response's body from: the Effect client
// (`FriendliClient.make`) and the Promise client (`makePromiseClient`) both take the one their layer provides, and a
// reader with no byte stream for a response leaves the client on the response's own byte stream.
import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { FriendliClient, makePromiseClient, ResponseBody } from "../src/index.ts"
import { BASE, chatChunkWire, fakeServer, sse } from "./client-support.ts"

const options = { token: "t", baseURL: BASE, initialRetryDelayMs: 1, maxRetryDelayMs: 1 }
const request = { model: "meta-llama-3.1-8b-instruct", messages: [{ role: "user" as const, content: "Hi" }] }

/** A reader that ignores the response and hands on a body of its own, saying "from the reader". */
const substitute: ResponseBody.ResponseBodyReader = () =>
  new Response(`data: ${JSON.stringify(chatChunkWire({ content: "from the reader" }))}\n\ndata: [DONE]\n\n`)
    .body as never

const serverAndReader = (reader: ResponseBody.ResponseBodyReader) =>
  Layer.merge(
    fakeServer(sse([chatChunkWire({ content: "from the server" })])).layer,
    Layer.succeed(ResponseBody.ResponseBody, reader),
  )

const contentOf = (
  chunks: Iterable<{
    readonly choices: ReadonlyArray<{ readonly delta: { readonly content?: string | null | undefined } }>
  }>,
) => Array.from(chunks, (c) => c.choices[0]?.delta.content ?? "").join("")

describe("ResponseBody", () => {
  it("the Effect client reads the streamed body through the ResponseBody in context", async () => {
    const chunks = await Effect.runPromise(
      Effect.flatMap(FriendliClient.make(options), (client) => Stream.runCollect(client.chat.stream(request))).pipe(
        Effect.provide(serverAndReader(substitute)),
      ),
    )
    assert.equal(contentOf(chunks), "from the reader")
  })

  it("the Promise client reads the streamed body through the ResponseBody its layer provides", async () => {
    const client = makePromiseClient(serverAndReader(substitute), options)
    try {
      const chunks = []
      for await (const chunk of client.chat.stream(request)) chunks.push(chunk)
      assert.equal(contentOf(chunks), "from the reader")
    } finally {
      await client.close()
    }
  })

  it("a reader with no byte stream for the response leaves the client on the response's own stream", async () => {
    const client = makePromiseClient(
      serverAndReader(() => undefined),
      options,
    )
    try {
      const chunks = []
      for await (const chunk of client.chat.stream(request)) chunks.push(chunk)
      assert.equal(contentOf(chunks), "from the server")
    } finally {
      await client.close()
    }
  })

  it("by default reads the body of a fetch response", async () => {
    const client = makePromiseClient(fakeServer(sse([chatChunkWire({ content: "from the server" })])).layer, options)
    try {
      assert.equal(
        await client.chat
          .stream(request)
          .finalCompletion()
          .then((c) => c.choices[0]?.message.content),
        "from the server",
      )
    } finally {
      await client.close()
    }
  })
})
