/**
 * The Node rows: every way a user reads a chat stream, each as `(base, onItem) => Promise<void>`, where `base` is the
 * server's origin plus its `/<mode>/<chunks>` prefix and `onItem` is called per item the row hands its user.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible"
import { createFriendli } from "@friendli-stream/ai-sdk"
import * as FriendliNode from "@friendli-stream/node"
import { decodeChatCompletionStream } from "@friendli-stream/stream"
import { streamText } from "ai"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import OpenAI from "openai"
import { request as undiciRequest } from "undici"
import { bareFetch, makeSplitter } from "./bare.ts"
import { CHAT_REQUEST, MODEL } from "./events.ts"
import type { Row } from "./measure.ts"

const BODY = JSON.stringify({ ...CHAT_REQUEST, stream: true })
const TOKEN = "bench-token"

const bareUndici: Row = async (base, onItem) => {
  const { body } = await undiciRequest(`${base}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: BODY,
  })
  const push = makeSplitter(onItem)
  for await (const piece of body) push(piece as Uint8Array)
}

const facade: Row = async (base, onItem) => {
  const response = await fetch(`${base}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: BODY,
  })
  if (response.body === null) throw new Error("no body")
  for await (const chunk of decodeChatCompletionStream(response.body)) onItem(chunk)
}

/** One Promise client per base URL (the row's process reads one mode only, so it makes one). */
const promiseRow = (fetch: typeof globalThis.fetch | undefined): Row => {
  const clients = new Map<string, FriendliNode.PromiseClient>()
  return async (base, onItem) => {
    let client = clients.get(base)
    if (client === undefined) {
      client = FriendliNode.createClient({ baseURL: base, token: TOKEN, fetch })
      clients.set(base, client)
    }
    for await (const chunk of client.chat.stream(CHAT_REQUEST)) onItem(chunk)
  }
}

const effectRow = (): Row => {
  const runtimes = new Map<string, ManagedRuntime.ManagedRuntime<FriendliNode.FriendliClient.FriendliClient, unknown>>()
  return (base, onItem) => {
    let runtime = runtimes.get(base)
    if (runtime === undefined) {
      runtime = ManagedRuntime.make(FriendliNode.layer({ baseURL: base, token: TOKEN }))
      runtimes.set(base, runtime)
    }
    return runtime.runPromise(
      FriendliNode.FriendliClient.FriendliClient.use((client) =>
        Stream.runForEach(client.chat.stream(CHAT_REQUEST), (chunk) => Effect.sync(() => onItem(chunk))),
      ),
    )
  }
}

const openaiRow = (): Row => {
  const clients = new Map<string, OpenAI>()
  return async (base, onItem) => {
    let client = clients.get(base)
    if (client === undefined) {
      client = new OpenAI({ baseURL: `${base}/v1`, apiKey: TOKEN, maxRetries: 0 })
      clients.set(base, client)
    }
    const stream = await client.chat.completions.create({ ...CHAT_REQUEST, stream: true })
    for await (const chunk of stream) onItem(chunk)
  }
}

type Model = Parameters<typeof streamText>[0]["model"]

/** `streamText` of the AI SDK on a provider's model; the items are the text deltas. */
const aiSdkRow = (model: (base: string) => Model): Row => {
  const models = new Map<string, Model>()
  return async (base, onItem) => {
    let m = models.get(base)
    if (m === undefined) {
      m = model(base)
      models.set(base, m)
    }
    const result = streamText({ model: m, prompt: "Say something.", maxRetries: 0 })
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") onItem(part)
      else if (part.type === "error") throw part.error
    }
  }
}

/** Every Node row, by name, in the order of the tables. */
export const nodeRows: Record<string, () => Row> = {
  "bare fetch loop": () => (base, onItem) => bareFetch(`${base}/v1/chat/completions`, BODY, onItem),
  "bare undici.request loop": () => bareUndici,
  "facade: fetch + decodeChatCompletionStream": () => facade,
  "Promise client, Node default (undici)": () => promiseRow(undefined),
  "Promise client on fetch": () => promiseRow(globalThis.fetch),
  "Effect client, Stream.runForEach": effectRow,
  "openai SDK 7": openaiRow,
  "AI SDK streamText: our provider": () => aiSdkRow((base) => createFriendli({ baseURL: base, token: TOKEN })(MODEL)),
  "AI SDK streamText: openai-compatible": () =>
    aiSdkRow((base) =>
      createOpenAICompatible({ name: "bench", baseURL: `${base}/v1`, apiKey: TOKEN }).chatModel(MODEL),
    ),
}
