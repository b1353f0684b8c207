/**
 * The decoders the benchmark compares. Each takes a fresh body and resolves with the number of chunks it delivered
 * (plus a checksum, so no work can be optimised away).
 */

import { parseJsonEventStream, zodSchema } from "@ai-sdk/provider-utils"
import * as Core from "@friendli-stream/core"
import * as Effect from "effect/Effect"
import * as EffectSse from "effect/encoding/Sse"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { createParser } from "eventsource-parser"
import { Stream as OpenAIStream } from "openai/streaming"
import { z } from "zod"
import { CompletionStream, decodeCompletionStream } from "../src/index.ts"

export type Decode = (body: ReadableStream<Uint8Array>) => Promise<number>

type Chunk = { readonly choices: ReadonlyArray<{ readonly text: string }> }
const weigh = (c: Chunk): number => c.choices.length

/** TextDecoder + `indexOf("\n\n")` + `JSON.parse`, no validation: the floor. */
const bare: Decode = async (body) => {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let buf = ""
  let n = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return n
    buf += decoder.decode(value, { stream: true })
    let i = buf.indexOf("\n\n")
    while (i !== -1) {
      const ev = buf.slice(0, i)
      buf = buf.slice(i + 2)
      if (ev.startsWith("data: ")) {
        const data = ev.slice(6)
        if (data === "[DONE]") {
          await reader.cancel()
          return n
        }
        n += weigh(JSON.parse(data)) + 1
      }
      i = buf.indexOf("\n\n")
    }
  }
}

const eventsourceParser: Decode = async (body) => {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let n = 0
  let done = false
  const parser = createParser({
    onEvent(e) {
      if (done) return
      if (e.data === "[DONE]") done = true
      else n += weigh(JSON.parse(e.data)) + 1
    },
  })
  while (!done) {
    const r = await reader.read()
    if (r.done) break
    parser.feed(decoder.decode(r.value, { stream: true }))
  }
  await reader.cancel()
  return n
}

const openai: Decode = async (body) => {
  let n = 0
  const stream = OpenAIStream.fromSSEResponse<Chunk>(new Response(body), new AbortController())
  for await (const c of stream) n += weigh(c) + 1
  return n
}

const zUsage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
})
const zChunk = z.object({
  id: z.string(),
  object: z.literal("text_completion"),
  model: z.string().nullish(),
  created: z.number().int(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      text: z.string(),
      token: z.number().int().nullish(),
      finish_reason: z
        .union([z.enum(["stop", "length"]), z.literal("null").transform(() => null), z.null()])
        .optional(),
      logprobs: z
        .object({
          text_offset: z.array(z.number().int()),
          token_logprobs: z.array(z.number()),
          tokens: z.array(z.string()),
          top_logprobs: z.array(z.record(z.string(), z.number())),
        })
        .nullish(),
    }),
  ),
  usage: zUsage.nullish(),
})

const vercel: Decode = async (body) => {
  let n = 0
  const reader = parseJsonEventStream({ stream: body, schema: zodSchema(zChunk) }).getReader()
  for (;;) {
    const r = await reader.read()
    if (r.done) return n
    if (!r.value.success) throw r.value.error
    n += weigh(r.value.value) + 1
  }
}

const decodeChunk = Schema.decodeUnknown(Core.CompletionChunk)

const count = <E>(stream: Stream.Stream<Chunk, E>): Promise<number> =>
  Effect.runPromise(
    Effect.suspend(() => {
      let n = 0
      return Effect.as(
        Stream.runForEach(stream, (c) =>
          Effect.sync(() => {
            n += weigh(c) + 1
          }),
        ),
        n,
      ).pipe(Effect.map(() => n))
    }),
  )

const bytesOf = (body: ReadableStream<Uint8Array>) =>
  Stream.fromReadableStream({ evaluate: () => body, onError: (e) => e })

const naiveEffect: Decode = (body) =>
  count(
    bytesOf(body).pipe(
      Stream.decodeText(),
      Stream.splitLines,
      Stream.filter((line) => line.startsWith("data: ")),
      Stream.map((line) => line.slice(6)),
      Stream.takeWhile((data) => data !== "[DONE]"),
      Stream.mapEffect((data) => decodeChunk(JSON.parse(data))),
    ),
  )

const effectSse: Decode = (body) =>
  count(
    bytesOf(body).pipe(
      Stream.decodeText(),
      Stream.pipeThroughChannel(EffectSse.makeChannel()),
      Stream.takeWhile((e) => e.data !== "[DONE]"),
      Stream.mapEffect((e) => decodeChunk(JSON.parse(e.data))),
    ),
  )

const oursEffect: Decode = (body) => count(CompletionStream.fromReadableStream(body))

const oursEffectChunks: Decode = (body) =>
  Effect.runPromise(
    Effect.suspend(() => {
      let n = 0
      return Stream.runForEachChunk(CompletionStream.fromReadableStream(body), (chunk) =>
        Effect.sync(() => {
          for (const c of chunk) n += weigh(c) + 1
        }),
      ).pipe(Effect.map(() => n))
    }),
  )

const oursEffectFold: Decode = (body) =>
  Effect.runPromise(Stream.runFold(CompletionStream.fromReadableStream(body), 0, (n, c) => n + weigh(c) + 1))

const oursEffectDecode: Decode = (body) => count(CompletionStream.decode(bytesOf(body)))

const oursFacade: Decode = async (body) => {
  let n = 0
  for await (const c of decodeCompletionStream(body)) n += weigh(c) + 1
  return n
}

/** Every decoder, by the name the table prints. `ours` marks the rows the targets apply to. */
export const decoders: ReadonlyArray<{ readonly name: string; readonly decode: Decode; readonly ours?: boolean }> = [
  { name: "bare loop (no validation)", decode: bare },
  { name: "ours: Effect (fromReadableStream)", decode: oursEffect, ours: true },
  { name: "ours: plain facade (for await)", decode: oursFacade, ours: true },
  { name: "ours: Effect, runForEachChunk", decode: oursEffectChunks },
  { name: "ours: Effect, runFold", decode: oursEffectFold },
  { name: "ours: Effect (decode(Stream.fromReadableStream))", decode: oursEffectDecode },
  { name: "eventsource-parser + JSON.parse", decode: eventsourceParser },
  { name: "openai SDK Stream", decode: openai },
  { name: "AI SDK parseJsonEventStream + zod", decode: vercel },
  { name: "naive Effect (decodeText/splitLines/Schema)", decode: naiveEffect },
  { name: "Effect Sse.makeChannel + Schema", decode: effectSse },
]
