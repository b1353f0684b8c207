#!/usr/bin/env node
/**
 * `friendli-demo`: streams a completion to the terminal. Without FRIENDLI_TOKEN it serves the mock Friendli
 * endpoint in-process (on 127.0.0.1) and streams from it; with a token it talks to the real API.
 */
import {
  type ClientError,
  createClient,
  InvalidRequestError,
  StreamError,
  UnprocessableEntityError,
} from "@friendli-stream/node"
import { createMockFriendli, LIVE_PACING } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"
import { parseCli, UsageError, usage } from "./args.ts"
import { showStream, startStream } from "./session.ts"

const defaultModel = "meta-llama-3.1-8b-instruct"

// The reader of our output went away (`pnpm start -- "Hi" | head -1`): nothing more can be shown, so end quietly,
// as `cat` or `grep` do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error
  process.exit(0)
})

const main = async (): Promise<number> => {
  const o = parseCli(process.argv.slice(2))
  if (o.help) {
    process.stdout.write(usage)
    return 0
  }
  // An empty FRIENDLI_TOKEN is no token.
  const token = process.env.FRIENDLI_TOKEN?.trim() || undefined
  if (token === undefined && o.endpoint !== undefined) {
    throw new UsageError(
      "--endpoint streams from a dedicated endpoint on Friendli's cloud, which needs a token: set FRIENDLI_TOKEN",
    )
  }
  // Without a token and a server of your own, the embedded mock (paced like a live server) answers.
  const mock =
    token === undefined && o.baseUrl === undefined
      ? await serveNode(createMockFriendli({ faults: LIVE_PACING }))
      : undefined
  if (mock) process.stderr.write(`No FRIENDLI_TOKEN: streaming from the embedded mock endpoint at ${mock.url}\n\n`)
  const deployment = o.endpoint !== undefined ? "dedicated" : o.baseUrl !== undefined ? "container" : "serverless"
  const client = createClient({
    token: token ?? (mock ? "demo-token" : undefined),
    deployment: mock ? "serverless" : deployment,
    ...(mock ? { baseURL: `${mock.url}/serverless` } : o.baseUrl === undefined ? {} : { baseURL: o.baseUrl }),
  })
  const controller = new AbortController()
  const onSigint = (): void => controller.abort()
  process.once("SIGINT", onSigint)
  try {
    const handle = startStream(client, o.endpoint ?? o.model ?? defaultModel, o, controller.signal)
    await showStream(handle, o, { stdout: process.stdout, stderr: process.stderr, now: () => performance.now() })
    return 0
  } catch (error) {
    if (controller.signal.aborted) {
      process.stderr.write("\naborted\n")
      return 130
    }
    throw error
  } finally {
    process.off("SIGINT", onSigint)
    await client.close()
    await mock?.close()
  }
}

const describeError = (error: unknown): string => {
  if (error instanceof UsageError) return `${error.message}\n\n${usage}`
  if (error instanceof InvalidRequestError) {
    return `InvalidRequestError: the request was not sent; fix these fields:\n${indent(error.explanation)}`
  }
  if (error instanceof UnprocessableEntityError && error.body !== undefined && "detail" in error.body) {
    const detail = error.body.detail
    const lines =
      typeof detail === "string"
        ? detail
        : detail.map((d) => `${(d.loc ?? []).filter((p) => p !== "body").join(".") || "body"}: ${d.msg}`).join("\n")
    return `UnprocessableEntityError: the server refused the request (422); fix these fields:\n${indent(lines)}`
  }
  if (error instanceof StreamError || (error instanceof Error && "_tag" in error)) {
    const e = error as ClientError | StreamError
    return `${e._tag}${"reason" in e && e.reason ? ` (${String(e.reason)})` : ""}: ${e.message}`
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

const indent = (lines: string): string =>
  lines
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n")

// Under `pnpm start`, a bad command line ends with 0 once it is explained: otherwise pnpm adds its own ELIFECYCLE
// lines below the explanation. Run directly, it ends with 2.
const usageExit = process.env.npm_lifecycle_event === "start" ? 0 : 2

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      error instanceof UsageError ? `friendli-demo: ${describeError(error)}` : `\n${describeError(error)}\n`,
    )
    process.exit(error instanceof UsageError ? usageExit : 1)
  },
)
