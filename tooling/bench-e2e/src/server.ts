/**
 * The benchmark's server, run in its own process: a `node:http` server on 127.0.0.1 that answers every POST with a
 * chat stream. The path says how: `/<mode>/<chunks>/...` (e.g. `/paced/200/v1/chat/completions`), where `mode` is
 * `paced` (one event per write, one write per tick of `--interval` ms, 5 by default, every open stream on one timer),
 * `bulk` (the whole body in 16 KiB writes) or `hold` (the first event, then nothing until the client goes away).
 * Prints `{"port":N}` once it listens; exits when its stdin closes.
 */
import { createServer, type ServerResponse } from "node:http"
import { parseArgs } from "node:util"
import { chatEvents } from "./events.ts"

const { values } = parseArgs({ options: { interval: { type: "string", default: "5" } } })
const interval = Number(values.interval)

const cache = new Map<number, { events: Array<Buffer>; bulk: Array<Buffer> }>()
const bodyOf = (chunks: number) => {
  let body = cache.get(chunks)
  if (body === undefined) {
    const events = chatEvents(chunks).map((e) => Buffer.from(e))
    const all = Buffer.concat(events)
    const bulk: Array<Buffer> = []
    for (let i = 0; i < all.length; i += 16 * 1024) bulk.push(all.subarray(i, i + 16 * 1024))
    body = { events, bulk }
    cache.set(chunks, body)
  }
  return body
}

/** The paced streams still writing: the response and the index of its next event. */
const paced = new Map<ServerResponse, { events: Array<Buffer>; next: number }>()
let timer: NodeJS.Timeout | undefined
const tick = () => {
  for (const [res, s] of paced) {
    res.write(s.events[s.next++])
    if (s.next === s.events.length) {
      paced.delete(res)
      res.end()
    }
  }
  if (paced.size === 0) {
    clearInterval(timer)
    timer = undefined
  }
}

const server = createServer((req, res) => {
  req.resume()
  req.on("end", () => {
    const [, mode, count] = (req.url ?? "").split("/")
    const chunks = Number(count)
    if (req.method !== "POST" || !Number.isInteger(chunks) || chunks < 1) {
      res.writeHead(404).end()
      return
    }
    const body = bodyOf(chunks)
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
    res.flushHeaders()
    res.on("close", () => paced.delete(res))
    if (mode === "bulk") {
      for (const piece of body.bulk) res.write(piece)
      res.end()
    } else if (mode === "hold") {
      res.write(body.events[0])
    } else {
      paced.set(res, { events: body.events, next: 0 })
      timer ??= setInterval(tick, interval)
    }
  })
})
server.keepAliveTimeout = 60_000
server.maxConnections = 100_000
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`,
  )
})
process.stdin.on("end", () => process.exit(0))
process.stdin.resume()
