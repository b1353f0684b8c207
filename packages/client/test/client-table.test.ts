// The table of APIs is all a new API needs: a made-up streamed API ("ticks"), one entry in the decoder's table and
// one in the client's, gets an Effect method, a Promise method and a `for await` facade with no other change.
import assert from "node:assert/strict"
import { ChunkDecodeError, StreamTruncated } from "@friendli-stream/stream"
import { facadeOf, guardedCodec, type StreamApi, unchanged } from "@friendli-stream/stream/internal"
import { describe, it } from "@friendli-stream/test-harness"
import { collect } from "@friendli-stream/test-harness/fixtures"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { resolveClientOptions } from "../src/index.ts"
import { apis, streamed } from "../src/internal/apis.ts"
import { clientOf, promiseClientOf } from "../src/internal/clients.ts"
import { jsonEndpoint } from "../src/internal/request.ts"
import { BASE, fakeServer, sse } from "./client-support.ts"

/** A tick: `{ n }` strictly; a compatible server may send `n` as a string too. */
const Tick = Schema.Struct({ n: Schema.Number })
const LooseTick = Schema.Struct({ n: Schema.Union([Schema.Number, Schema.String]) })
type Tick = typeof Tick.Type
type LooseTick = typeof LooseTick.Type

/** The decoder's entry: codecs, `data: [DONE]` ends it, the ticks fold into their sum. */
const ticksDecoder: StreamApi<Tick, LooseTick, number> = {
  name: "ticks",
  strict: guardedCodec<Tick, Tick>({ guard: Schema.is(Tick), schema: Tick, normalize: unchanged }),
  compatible: guardedCodec<LooseTick, LooseTick>({
    guard: Schema.is(LooseTick),
    schema: LooseTick,
    normalize: unchanged,
  }),
  accumulator: () => {
    let sum = 0
    return {
      add: (tick: Tick | LooseTick) => {
        sum += Number(tick.n)
      },
      result: () => sum,
    }
  },
}

/** The request of the ticks API. */
const TicksRequest = Schema.Struct({ count: Schema.Number })

/** The client's entry: the endpoint, and the decoder's entry. */
const table = {
  ...apis,
  ticks: streamed<typeof TicksRequest.Type>()({
    decoder: ticksDecoder,
    endpoint: () => jsonEndpoint("ticks", "/v1/ticks", Schema.is(TicksRequest), TicksRequest),
  }),
}

const ticks = [{ n: 1 }, { n: 2 }, { n: 3 }]
const options = { token: "t", baseURL: BASE, initialRetryDelayMs: 1, maxRetryDelayMs: 1 }

describe("a made-up API added to the table", () => {
  it("streams its typed items through the Effect client, sending its request to its endpoint", async () => {
    const server = fakeServer(sse(ticks))
    const items = await Effect.runPromise(
      Effect.flatMap(HttpClient.HttpClient, (http) =>
        Stream.runCollect(clientOf(resolveClientOptions(options), http, table).ticks.stream({ count: 3 })),
      ).pipe(Effect.provide(server.layer)),
    )
    assert.deepEqual(Array.from(items), ticks)
    assert.equal(server.seen[0]?.url, `${BASE}/v1/ticks`)
    assert.deepEqual(server.seen[0]?.json, { count: 3, stream: true })
  })

  it("streams through the Promise client and folds into the entry's accumulator", async () => {
    const server = fakeServer(sse(ticks))
    const client = promiseClientOf(server.layer, options, table)
    const handle = client.ticks.stream({ count: 3 })
    const { items, error } = await collect(handle)
    assert.equal(error, undefined)
    assert.deepEqual(items, ticks)
    assert.equal(await handle.finalCompletion(), 6)
    await client.close()
  })

  it("decodes compatible items with validation compatible, and fails strictly on them otherwise", async () => {
    const loose = [{ n: 1 }, { n: "2" }]
    const server = fakeServer(sse(loose))
    const client = promiseClientOf(server.layer, options, table)
    const compatible = await collect(client.ticks.stream({ count: 2 }, { validation: "compatible" }))
    assert.deepEqual(compatible.items, loose)
    assert.equal(compatible.error, undefined)
    const strict = await collect(client.ticks.stream({ count: 2 }))
    assert.deepEqual(strict.items, [{ n: 1 }])
    assert.ok(strict.error instanceof ChunkDecodeError, String(strict.error))
    await client.close()
  })

  it("ends its facade at data: [DONE], and fails a body cut before it with StreamTruncated", async () => {
    const facade = facadeOf(ticksDecoder)
    const whole = await collect(facade((await sse(ticks)(new Request(BASE))).body!))
    assert.deepEqual(whole.items, ticks)
    assert.equal(whole.error, undefined)
    const cut = await collect(facade((await sse(ticks, false)(new Request(BASE))).body!))
    assert.deepEqual(cut.items, ticks)
    assert.ok(cut.error instanceof StreamTruncated, String(cut.error))
  })
})
