/**
 * The decoders the benchmark compares. Each takes a fresh body and resolves with the number of chunks it delivered
 * plus the number of their choices (a checksum every decoder must agree on, so no work can be optimised away).
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
import { benchClient, fakeFetch, request } from "./client.ts"

export type Decode = (body: ReadableStream<Uint8Array>) => Promise<number>

type Chunk = { readonly choices: ReadonlyArray<{ readonly text: string }> }
const weigh = (c: Chunk): number => c.choices.length

/** TextDecoder + `indexOf("\n\n")` + `JSON.parse`, no validation: the reference every ratio is taken to. */
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

/** The bare loop, keeping the parsed chunks instead of counting them. */
const bareCollect = async (body: ReadableStream<Uint8Array>): Promise<Array<Chunk>> => {
  const decoder = new TextDecoder()
  const reader = body.getReader()
  let buf = ""
  const out: Array<Chunk> = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return out
    buf += decoder.decode(value, { stream: true })
    let i = buf.indexOf("\n\n")
    while (i !== -1) {
      const ev = buf.slice(0, i)
      buf = buf.slice(i + 2)
      if (ev.startsWith("data: ")) {
        const data = ev.slice(6)
        if (data === "[DONE]") {
          await reader.cancel()
          return out
        }
        out.push(JSON.parse(data))
      }
      i = buf.indexOf("\n\n")
    }
  }
}

/** Consumes a stream with `Stream.runForEach`, one `Effect.sync` per chunk: how the targets consume the Effect rows. */
const count = <E>(stream: Stream.Stream<Chunk, E>): Promise<number> =>
  Effect.runPromise(
    Effect.suspend(() => {
      let n = 0
      return Stream.runForEach(stream, (c) =>
        Effect.sync(() => {
          n += weigh(c) + 1
        }),
      ).pipe(Effect.map(() => n))
    }),
  )

/**
 * Effect's floor: the bare loop's decoding, then all its chunks emitted as one array of an Effect stream and consumed
 * with `Stream.runForEach`. Its excess over the bare loop is what `runForEach` costs per element.
 */
const effectFloor: Decode = async (body) => count(Stream.fromArray(await bareCollect(body)))

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

/** The generated Effect Schema of a chunk, as a plain Effect program would decode it. */
const decodeChunk = Schema.decodeUnknownEffect(Core.CompletionChunk)

const bytesOf = (body: ReadableStream<Uint8Array>) =>
  Stream.fromReadableStream({ evaluate: () => body, onError: (e) => e })

/** What one would write with Effect's stream operators alone. */
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

/** Effect's own SSE parser (`effect/encoding/Sse`), then the chunk's Schema. */
const effectSse: Decode = (body) =>
  count(
    bytesOf(body).pipe(
      Stream.decodeText(),
      Stream.pipeThroughChannel(EffectSse.decode()),
      Stream.takeWhile((e) => e.data !== "[DONE]"),
      Stream.mapEffect((e) => decodeChunk(JSON.parse(e.data))),
    ),
  )

const oursFacade: Decode = async (body) => {
  let n = 0
  for await (const c of decodeCompletionStream(body)) n += weigh(c) + 1
  return n
}

const oursEffect: Decode = (body) => count(CompletionStream.fromReadableStream(body))

const oursEffectArrays: Decode = (body) =>
  Effect.runPromise(
    Effect.suspend(() => {
      let n = 0
      return Stream.runForEachArray(CompletionStream.fromReadableStream(body), (chunks) =>
        Effect.sync(() => {
          for (const c of chunks) n += weigh(c) + 1
        }),
      ).pipe(Effect.map(() => n))
    }),
  )

const oursDecode: Decode = (body) => count(bytesOf(body).pipe(CompletionStream.decode()))

/**
 * The client's streaming path: `FriendliClient` (default options but a base URL) on `FriendliClient.fetchHttpClient`
 * with a fake `fetch` that answers with a `Response` over the workload's body. Everything the client does runs:
 * request validation, `HttpClient.execute`, the retry schedule, the idle timeout, and the body decoded through
 * `HttpClientResponse.toWeb` by the batching body reader. The client is built once, as a program would.
 */
const fake = fakeFetch()
const client = await benchClient(fake.fetch, "http://bench.invalid")
const oursClient: Decode = (body) => {
  fake.answerWith(body)
  return count(client.completions.stream(request))
}

/**
 * A row of the table. `target`: how the row is judged — `facade`: ≤ 1.3x the bare loop; `effect`: ≤ 1.3x plus the
 * floor's excess over 1.0x (the Effect rows consumed with `runForEach`); none: printed for comparison.
 */
export interface Row {
  readonly name: string
  readonly decode: Decode
  readonly target?: "facade" | "effect"
}

/** The reference row (first) and the floor's row are found by these names. */
export const BARE = "bare loop (TextDecoder + indexOf + JSON.parse, no validation)"
export const FLOOR = "Effect's floor (bare loop, then Stream.fromArray + runForEach)"

export const decoders: ReadonlyArray<Row> = [
  { name: BARE, decode: bare },
  { name: FLOOR, decode: effectFloor },
  { name: "ours: facade decodeCompletionStream (for await)", decode: oursFacade, target: "facade" },
  { name: "ours: Effect API fromReadableStream + runForEach", decode: oursEffect, target: "effect" },
  { name: "ours: client completions.stream + runForEach", decode: oursClient, target: "effect" },
  { name: "ours: Effect API fromReadableStream + runForEachArray", decode: oursEffectArrays },
  { name: "ours: CompletionStream.decode(Stream.fromReadableStream) + runForEach", decode: oursDecode },
  { name: "eventsource-parser + JSON.parse (no validation)", decode: eventsourceParser },
  { name: "openai SDK Stream (no validation)", decode: openai },
  { name: "AI SDK parseJsonEventStream + zod", decode: vercel },
  { name: "Effect Sse.decode + Schema", decode: effectSse },
  { name: "naive Effect (decodeText/splitLines/Schema)", decode: naiveEffect },
]
