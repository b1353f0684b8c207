/**
 * Why `Stream.runForEach` costs more than the decoder: Effect's own sinks on a synthetic source (no code of ours), then
 * the same allocation pattern in plain JavaScript. Each consumer reads 3,000 batches of 256 fresh objects. Halfway,
 * the heap is measured after a minor GC and again after a full one: what the minor GC keeps and the full one frees is
 * garbage that the scavenger copied and promoted although nothing live pointed at it.
 *
 * The last two rows need no Effect: a helper that builds an object and then adds a property holding a fresh closure
 * over its argument (`o.effect = () => value`, the shape of Effect's `Channel.fromEffect` and `Channel.flatMap` nodes)
 * makes V8 keep whatever the argument reaches until the next full GC. The same closure set in the object literal does
 * not. `Sink.forEach` builds one such node per chunk, around an effect that holds the chunk.
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
/** A node built like Effect's channel nodes: the closure is added after the object exists. */
const nodeProto = { kind: "node" }
const addedNode = (value: () => number): Node => {
  const node = Object.create(nodeProto) as Node
  node._tag = "FromEffect"
  node.effect = () => value
  return node
}
/** The same node with the closure set in the literal. */
const literalNode = (value: () => number): Node => ({
  _tag: "FromEffect",
  effect: () => value,
})
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
  ["plain JS, no Effect: `o.effect = () => value` added after creation", plain(addedNode)],
  ["plain JS, no Effect: the same closure set in the object literal", plain(literalNode)],
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
