// Every error message the client and the decoder build, from inputs that end their own sentences ("not valid.",
// "fault).") and from each failure the options, the requests and the decoder can meet: none may double its
// punctuation ("valid.. Check", "fault).. Retrying") or leave a quote or a bracket open.
import assert from "node:assert/strict"
import { decodeChatCompletionStream } from "@friendli-stream/stream"
import { describe, it } from "@friendli-stream/test-harness"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type ClientOptions, FriendliClient, makePromiseClient, resolveClientOptions } from "../src/index.ts"
import { connectionError, statusError } from "../src/internal/errors.ts"
import { BASE, chatChunkWire, fakeServer, json } from "./client-support.ts"

/** What is wrong with a message's punctuation, or `undefined`. */
export const punctuationFault = (message: string): string | undefined => {
  if (/(^|[^.])\.\.($|[^.])/.test(message)) return "a doubled period"
  if (/[.!?]\s+\./.test(message)) return "a period after a finished sentence"
  if ((message.match(/"/g)?.length ?? 0) % 2 !== 0) return "an unbalanced double quote"
  const open = message.match(/\(/g)?.length ?? 0
  const close = message.match(/\)/g)?.length ?? 0
  if (open !== close) return `unbalanced parentheses (${open} open, ${close} closed)`
  return undefined
}

const assertClean = (messages: ReadonlyArray<string>) => {
  assert.ok(messages.length > 0, "no message was built")
  const faults = messages.flatMap((m) => {
    const fault = punctuationFault(m)
    return fault === undefined ? [] : [`${fault}: ${m}`]
  })
  assert.deepEqual(faults, [])
}

/** Texts from elsewhere, as servers and runtimes write them: with and without their own final period. */
const FOREIGN = [
  "The model is not valid.",
  "Internal fault (the server's fault).",
  "model not found",
  "Are you sure?",
  "",
]

const messageOf = async (run: () => Promise<unknown>): Promise<string> => {
  try {
    await run()
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
  throw new Error("expected a failure")
}

const decodeFailure = (body: string, options?: Parameters<typeof decodeChatCompletionStream>[1]) =>
  messageOf(async () => {
    for await (const _ of decodeChatCompletionStream(new Response(body).body!, options)) {
      // read to the failure
    }
  })

const chunk = (delta: Record<string, unknown>) => `data: ${JSON.stringify(chatChunkWire(delta))}\n\n`

describe("error messages", () => {
  it("never double a period or leave a quote open in a status error, whatever the body says", () => {
    const messages: Array<string> = []
    for (const status of [400, 401, 403, 404, 408, 409, 418, 422, 425, 429, 500, 503]) {
      for (const text of FOREIGN) {
        for (const body of [
          { error: { message: text, type: "invalid_request_error", code: status } },
          { message: text },
          { detail: text },
          { detail: [{ loc: ["body", "model"], msg: text, type: "value_error" }] },
        ]) {
          messages.push(
            statusError({
              status,
              text: JSON.stringify(body),
              requestId: "req-1",
              retryAfterMs: undefined,
              url: `${BASE}/v1/chat/completions`,
              attempts: 3,
            }).message,
          )
        }
        messages.push(
          statusError({ status, text, requestId: undefined, retryAfterMs: 1000, url: BASE, attempts: 1 }).message,
        )
      }
    }
    assertClean(messages)
  })

  it("never double a period in a connection error, and a broken stream says what to do", () => {
    const messages = FOREIGN.flatMap((text) => [
      connectionError("Send", `${BASE}/v1/chat/completions`, new Error(text)).message,
      connectionError("Receive", `${BASE}/v1/chat/completions`, new Error(text, { cause: new Error(text) })).message,
    ])
    assertClean(messages)
    const reset = connectionError("Receive", BASE, Object.assign(new Error("read ECONNRESET."), { code: "ECONNRESET" }))
    assert.match(reset.message, /send the request again/)
    assert.match(reset.message, /maxRetries/)
    assert.match(reset.message, /resume/)
  })

  it("never double a period in what the decoder reports", async () => {
    const messages: Array<string> = []
    for (const text of FOREIGN) {
      messages.push(await decodeFailure(`data: ${JSON.stringify({ error: { message: text, code: 500 } })}\n\n`))
      messages.push(await decodeFailure(`data: ${JSON.stringify({ error: { message: text, code: 400 } })}\n\n`))
      messages.push(await decodeFailure(`event: error\ndata: ${JSON.stringify(text)}\n\n`))
    }
    messages.push(await decodeFailure(chunk({ content: "a" })))
    messages.push(await decodeFailure(`${chunk({ content: "a" })}data: {"id": `))
    messages.push(await decodeFailure("data: {not json.}\n\n"))
    messages.push(await decodeFailure(`data: ${JSON.stringify({ id: 1, choices: "none." })}\n\n`))
    messages.push(await decodeFailure(`data: ${"x".repeat(200)}\n\n`, { maxEventBytes: 64 }))
    assertClean(messages)
  })

  it("never double a period in an option's refusal", () => {
    const bad: ReadonlyArray<ClientOptions> = [
      { deployment: "cloud." as never },
      { deployment: "serverless" },
      { token: "t", apiKey: "k" },
      { token: "t", maxRetries: -1 },
      { token: "t", maxRetries: 1.5 },
      { token: "t", initialRetryDelayMs: 0 },
      { token: "t", maxRetryDelayMs: Number.NaN },
      { token: "t", maxRetryAfterMs: -2 },
      { token: "t", firstByteTimeoutMs: -1 },
      { token: "t", idleTimeoutMs: 0 },
      { token: "t", baseURL: "not a url." },
      { token: "t", baseURL: "ftp://x.test." },
      { token: "t", baseURL: "https://x.test/v1?a=b." },
      { token: "t", baseURL: "https://x.test/v1/chat/completions" },
    ]
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    const saved = env?.FRIENDLI_TOKEN
    if (env !== undefined) delete env.FRIENDLI_TOKEN
    try {
      assertClean(
        bad.map((options) => {
          try {
            resolveClientOptions(options)
          } catch (e) {
            return (e as Error).message
          }
          throw new Error(`options accepted: ${JSON.stringify(options)}`)
        }),
      )
    } finally {
      if (env !== undefined && saved !== undefined) env.FRIENDLI_TOKEN = saved
    }
  })

  it("never double a period in a refused request", async () => {
    const server = fakeServer(json(200, {}))
    const client = makePromiseClient(server.layer, { token: "t", baseURL: BASE, deployment: "dedicated" })
    const layer = Layer.provide(FriendliClient.layer({ token: "t", baseURL: BASE }), server.layer)
    const messages = [
      await messageOf(() => client.chat.create({ model: "m", messages: "Hi." as never })),
      await messageOf(() => client.completions.create({ model: "m", prompt: 5 as never })),
      await messageOf(() => client.models.list()),
      await messageOf(() =>
        Effect.runPromise(
          Effect.flatMap(FriendliClient.FriendliClient, (c) =>
            c.completions.create({ model: "m", prompt: "Hi", stream: true } as never),
          ).pipe(Effect.provide(layer)),
        ),
      ),
      await messageOf(() => client.chat.create({ model: "m", messages: [] })),
    ]
    assertClean(messages)
    assert.equal(server.seen.length, 1, "only the valid request was sent")
    await client.close()
  })
})
