import { decoders } from "./decoders.ts"
import { queuedBody, workloads } from "./workloads.ts"

const which = process.argv[2] ?? "facade"
const wl = process.argv[3] ?? "net"
const d = decoders.find((x) => x.name.includes(which))!
const w = workloads(1).find((x) => x.name === wl)!
for (let i = 0; i < 30; i++) await d.decode(queuedBody(w.pieces))
