// vitest global setup of the workerd suite, run in Node before the pool starts (workerd cannot listen on a socket):
// three mocks on real sockets, one for the adapter suite, one for the proxy tests and one for the proxy's 5,000
// requests (their records must not mix), whose URLs become Worker bindings (package.json: "injectBindings"); and a
// probe that reads the workerd process's memory from /proc for the tests in workerd, where `process.memoryUsage()`
// answers zeros.
import { readdirSync, readFileSync } from "node:fs"
import { MOCK_OPTIONS, TOKEN } from "@friendli-stream/adapter-suite/mock"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

interface Project {
  provide(key: string, value: string): void
}

/** What the probe answers: the workerd processes under this one, and their resident memory (bytes). */
export interface WorkerdMemory {
  readonly pids: ReadonlyArray<number>
  /** Resident anonymous memory (`RssAnon`): the V8 heaps and workerd's own allocations, without mapped files. */
  readonly rssAnon: number
  /** Resident memory (`VmRSS`). */
  readonly rss: number
}

const procStatus = (pid: number): Map<string, string> | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8")
    return new Map(
      text.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
    )
  } catch {
    return undefined // gone, or not Linux
  }
}

const kB = (value: string | undefined): number => Number(/^(\d+)\s*kB$/.exec(value ?? "")?.[1] ?? 0) * 1024

/** The workerd processes descended from this one (the pool's Miniflare starts them), with their memory. */
const workerdMemory = (): WorkerdMemory | null => {
  let entries: Array<string>
  try {
    entries = readdirSync("/proc")
  } catch {
    return null
  }
  const parent = new Map<number, number>()
  const name = new Map<number, string>()
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const status = procStatus(Number(entry))
    if (status === undefined) continue
    parent.set(Number(entry), Number(status.get("PPid")))
    name.set(Number(entry), status.get("Name") ?? "")
  }
  const descends = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true
    return false
  }
  const pids = [...name].filter(([pid, n]) => n.startsWith("workerd") && descends(pid)).map(([pid]) => pid)
  let rss = 0
  let rssAnon = 0
  for (const pid of pids) {
    const status = procStatus(pid)
    rss += kB(status?.get("VmRSS"))
    rssAnon += kB(status?.get("RssAnon"))
  }
  return pids.length === 0 ? null : { pids, rss, rssAnon }
}

export default async function setup(project: Project): Promise<() => Promise<void>> {
  const suiteMock = await serveNode(createMockFriendli(MOCK_OPTIONS))
  const proxyMock = await serveNode(createMockFriendli(MOCK_OPTIONS))
  const memoryMock = await serveNode(createMockFriendli(MOCK_OPTIONS))
  // `connection: close`: each sample takes a new connection. A kept-alive one sits idle for seconds between samples,
  // and workerd may reuse it just as Node's keep-alive timeout closes it ("Network connection lost").
  const probe = await serveNode(async () => Response.json(workerdMemory(), { headers: { connection: "close" } }))
  project.provide("SUITE_MOCK_URL", suiteMock.url)
  project.provide("PROXY_MOCK_URL", proxyMock.url)
  project.provide("FRIENDLI_BASE_URL", `${proxyMock.url}/serverless`)
  project.provide("FRIENDLI_TOKEN", TOKEN)
  project.provide("MEMORY_MOCK_URL", memoryMock.url)
  project.provide("MEMORY_PROBE_URL", probe.url)
  return async () => {
    await Promise.all([suiteMock.close(), proxyMock.close(), memoryMock.close(), probe.close()])
  }
}
