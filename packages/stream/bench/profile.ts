/**
 * Runs one decoder on one workload 30 times, for a CPU profile:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.ts "facade" per-event
 */
import { decoders } from "./decoders.ts"
import { queuedBody, workloads } from "./workloads.ts"

const which = process.argv[2] ?? "facade"
const name = process.argv[3] ?? "net"
const decoder = decoders.find((d) => d.name.includes(which))
const workload = workloads(1).find((w) => w.name === name)
if (decoder === undefined || workload === undefined) throw new Error(`no decoder "${which}" or workload "${name}"`)
for (let i = 0; i < 30; i++) await decoder.decode(queuedBody(workload.pieces))
