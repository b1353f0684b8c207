/**
 * Why `Stream.runForEach` costs more than the decoder: Effect's own sinks on a synthetic source (no code of ours), then
 * the same allocation pattern in plain JavaScript. Each consumer reads 3,000 batches of 256 fresh objects. Halfway,
 * the heap is measured after a minor GC and again after a full one: what the minor GC keeps and the full one frees is
 * garbage that the scavenger copied and promoted although nothing live pointed at it.
 *
 * The cause, found with the last two rows (plain JavaScript, no Effect): V8's parser pretenures a function literal
 * assigned straight to a property (`o.effect = () => value` is allocated in the old generation, as V8 expects a method
 * there). A closure that is old from birth keeps whatever it reaches alive through every scavenge, until the next full
 * GC. Effect's `Channel.fromEffect` is written `op.effect = () => effect`, and `Sink.forEach` (so `Stream.runForEach`)
 * builds one per chunk around an effect that holds the chunk. The same closure assigned through a local
 * (`const thunk = () => value; o.effect = thunk`) is allocated young and dies young.
 *
 *   node --expose-gc bench/effect-sinks.ts
 */
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"

const BATCHES = 3000
const HALF = BATCHES >> 1

type Item = { readonly id: string; readonly choices: ReadonlyArray<{ readonly text: string }> }

const gc = (globalThis as { gc?: (options?: { type: "minor" | "major" }) => void }).gc
if (gc === undefined) throw new Error("run with node --expose-gc")

const batch = (): Array<Item> => Array.from({ length: 256 }, (_, i) => ({ id: `x${i}`, choices: [{ text: `t${i}` }] }))

const source = (): Stream.Stream<Item> => {
  let i = 0
  return Stream.repeatEffectChunkOption(
    Effect.suspend(() =>
      i++ < BATCHES ? Effect.succeed(Chunk.unsafeFromArray(batch())) : Effect.fail(Option.none<never>()),
    ),
  )
}

const MiB = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`
let probe = ""
let seen = 0
/** Counts items; halfway, records the heap after a minor and after a full GC. */
const see = (n: number): void => {
  const before = seen
  seen += n
  if (before < HALF * 256 && seen >= HALF * 256) {
    gc({ type: "minor" })
    const minor = process.memoryUsage().heapUsed
    gc()
    const full = process.memoryUsage().heapUsed
    probe = `${MiB(minor)} after a minor GC, ${MiB(full)} after a full GC`
  }
}

/** A sink written as users write them: a channel that runs an effect per chunk, the effect closing over the chunk. */
const capturingSink: Channel.Channel<never, Chunk.Chunk<Item>, never, never, void, unknown> = Channel.readWith({
  onInput: (input: Chunk.Chunk<Item>) =>
    Channel.flatMap(Channel.fromEffect(Effect.sync(() => see(input.length))), () => capturingSink),
  onFailure: Channel.fail,
  onDone: () => Channel.void,
})

type Node = { _tag: string; effect: () => () => number }
const nodeProto = { kind: "node" }
/** A node built as Effect's `Channel.fromEffect` builds one: V8 pretenures the closure. */
const pretenuredNode = (value: () => number): Node => {
  const node = Object.create(nodeProto) as Node
  node._tag = "FromEffect"
  node.effect = () => value
  return node
}
/** The same node with the closure assigned through a local: allocated young. */
const youngNode = (value: () => number): Node => {
  const node = Object.create(nodeProto) as Node
  node._tag = "FromEffect"
  const thunk = () => value
  node.effect = thunk
  return node
}
/** Plain JavaScript: per batch, a node whose closure reaches the batch, then the node is run and dropped. */
const plain = (node: (value: () => number) => Node) => (): Effect.Effect<unknown> =>
  Effect.sync(() => {
    for (let i = 0; i < BATCHES; i++) {
      const items = batch()
      node(() => items.length).effect()()
      see(items.length)
    }
  })

const consumers: ReadonlyArray<readonly [string, () => Effect.Effect<unknown>]> = [
  [
    "Stream.runFold (no effect per item)",
    () =>
      Stream.runFold(source(), 0, (n) => {
        see(1)
        return n + 1
      }),
  ],
  [
    "Stream.runForEachChunk(() => Effect.void)",
    () =>
      Stream.runForEachChunk(source(), (c) => {
        see(c.length)
        return Effect.void
      }),
  ],
  [
    "Stream.runForEach((a) => Effect.sync(…a…))",
    () => Stream.runForEach(source(), (a) => Effect.sync(() => see(a.choices.length))),
  ],
  ["a sink running Effect.sync(…chunk…) per chunk", () => Stream.run(source(), Sink.fromChannel(capturingSink))],
  ["plain JS, no Effect: `o.effect = () => value` (V8 pretenures the closure)", plain(pretenuredNode)],
  ["plain JS, no Effect: `const thunk = () => value; o.effect = thunk`", plain(youngNode)],
]

console.log(
  `\nEffect's sinks on a synthetic source (${BATCHES} batches of 256 objects; Node ${process.versions.node})\n`,
)
console.log("| consumer | time | heap halfway |")
console.log("| --- | ---: | --- |")
for (const [name, run] of consumers) {
  await Effect.runPromise(run()) // warm-up
  gc()
  seen = 0
  const start = performance.now()
  await Effect.runPromise(run())
  const ms = performance.now() - start
  console.log(`| ${name} | ${ms.toFixed(0)} ms | ${probe} |`)
}
