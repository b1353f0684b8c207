/**
 * The mock's own HTTP control routes, under `/_mock/`, for tests that run in another process than the mock
 * (a standalone server, `wrangler dev`). They need no token and are not recorded.
 *
 * - `GET /_mock/health` -> `{"ok": true}`
 * - `GET /_mock/requests` -> every record, oldest first
 * - `DELETE /_mock/requests` -> forget every record
 * - `GET /_mock/requests/ID` -> one record (404 if unknown)
 * - `GET /_mock/requests/ID/disconnect?timeout=MS` -> waits until that request's client disconnected (408 on timeout)
 * - `GET /_mock/requests/ID/settled?timeout=MS` -> waits until that request's response ended in any way
 * - `POST /_mock/faults` with a fault spec as the text body -> queues it for the next API request
 */
import { apiError, notFound } from "./errors.ts"
import { FaultSpecError, parseFaultSpec } from "./faults.ts"
import type { MockCore } from "./handler.ts"
import type { RequestRecord } from "./records.ts"

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const wait = async (
  core: MockCore,
  id: string,
  what: string,
  test: (r: RequestRecord) => boolean,
  url: URL,
): Promise<Response> => {
  const timeoutMs = Number(url.searchParams.get("timeout") ?? "5000")
  try {
    const record = await core.recorder.waitFor(
      `${what} of ${id}`,
      () => {
        const r = core.recorder.get(id)
        return r !== undefined && test(r) ? r : undefined
      },
      { timeoutMs },
    )
    return json(record)
  } catch (error) {
    return apiError(408, error instanceof Error ? error.message : String(error), "mock_timeout", "timeout")
  }
}

/** Answers a `/_mock/...` request. */
export const control = async (core: MockCore, request: Request, path: string, url: URL): Promise<Response> => {
  const parts = path.split("/").filter((p) => p !== "")
  const method = request.method
  if (parts.length === 2 && parts[1] === "health") return json({ ok: true })
  if (parts[1] === "requests") {
    if (parts.length === 2 && method === "GET") return json(core.recorder.all())
    if (parts.length === 2 && method === "DELETE") {
      core.recorder.clear()
      return json({ ok: true })
    }
    const id = parts[2]
    if (id !== undefined && method === "GET") {
      if (parts.length === 3) {
        const record = core.recorder.get(id)
        return record === undefined ? notFound() : json(record)
      }
      if (parts.length === 4 && parts[3] === "disconnect") {
        return wait(core, id, "the client disconnect", (r) => r.disconnectedAt !== undefined, url)
      }
      if (parts.length === 4 && parts[3] === "settled") {
        return wait(core, id, "the end of the response", (r) => r.outcome !== "pending", url)
      }
    }
  }
  if (parts.length === 2 && parts[1] === "faults" && method === "POST") {
    const spec = await request.text()
    try {
      parseFaultSpec(spec)
    } catch (error) {
      if (error instanceof FaultSpecError) return apiError(400, error.message, "mock_fault_error", "invalid_fault")
      throw error
    }
    core.queue.push(spec)
    return json({ ok: true, queued: core.queue.length })
  }
  return notFound()
}
