// The load run's upstream (bench/load.ts): the mock Friendli endpoint in a Node process of its own, remembering every
// request of a run (not the default last 1,000), so that the run can count how each upstream request ended.
// `GET /_bench/outcomes` answers, for every completions request since the last `DELETE /_mock/requests`, its prompt,
// how it ended (`completed`, `disconnected`, `pending`, …) and when (ms since the epoch); everything else is the mock's.
//
//     node bench/mock.ts --faults delay:20        (prints "friendli mock (node) listening on URL")
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

const at = process.argv.indexOf("--faults")
const mock = createMockFriendli({
  ...(at < 0 ? {} : { faults: process.argv[at + 1]! }),
  maxRecords: 1_000_000,
})
const server = await serveNode(
  async (request: Request) => {
    if (request.method === "GET" && new URL(request.url).pathname === "/_bench/outcomes") {
      return Response.json(
        mock.requests
          .filter((r) => r.api === "completions")
          .map((r) => ({
            prompt: (r.body as { prompt?: unknown } | undefined)?.prompt,
            outcome: r.outcome,
            endedAt: r.disconnectedAt ?? r.completedAt,
          })),
      )
    }
    return await mock.fetch(request)
  },
  { port: 0, hostname: "127.0.0.1" },
)
console.log(`friendli mock (node) listening on ${server.url}`)
