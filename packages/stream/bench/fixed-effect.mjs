/**
 * A module hook that loads Effect with the one-line change that stops V8 from pretenuring `Channel.fromEffect`'s
 * closure (see `effect-sinks.ts`): `op.effect = () => effect` becomes `const thunk = () => effect; op.effect = thunk`.
 * Nothing on disk changes. It shows what the Effect rows measure once Effect has that fix:
 *
 *   node --expose-gc --import ./bench/fixed-effect.mjs bench/throughput.ts
 */
import { registerHooks } from "node:module"

const FILE = "/effect/dist/esm/internal/core-stream.js"
const FROM = "op.effect = () => effect;"
const TO = "const thunk = () => effect;\n  op.effect = thunk;"

registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context)
    if (!url.endsWith(FILE)) return result
    const source = typeof result.source === "string" ? result.source : new TextDecoder().decode(result.source)
    if (!source.includes(FROM)) throw new Error(`fixed-effect: "${FROM}" is not in ${url}; this Effect differs`)
    process.stderr.write("  (Effect loaded with Channel.fromEffect's closure assigned through a local)\n")
    return { ...result, source: source.replace(FROM, TO) }
  },
})
