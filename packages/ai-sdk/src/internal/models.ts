/**
 * `GET /v1/models` (Friendli's serverless model list) through the client's HTTP layer (the same `HttpClient` on
 * `fetch` and the same headers as every other request), checked with the generated guard.
 */
import { APICallError } from "@ai-sdk/provider"
import { isServerlessModelListSuccess, ServerlessModelListSuccess } from "@friendli-stream/core"
import type { ResolvedClientOptions } from "@friendli-stream/stream"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"

/** Lists the models of the deployment the provider points at. */
export const listModels = async (
  http: HttpClient.HttpClient,
  options: ResolvedClientOptions,
  signal: AbortSignal | undefined,
): Promise<ServerlessModelListSuccess["data"]> => {
  const url = `${options.baseURL}/v1/models`
  const headers: Record<string, string> = { ...options.headers, accept: "application/json" }
  if (options.token !== undefined) headers.authorization = `Bearer ${Redacted.value(options.token)}`
  if (options.team !== undefined) headers["x-friendli-team"] = options.team
  const program = Effect.scoped(
    Effect.gen(function* () {
      const response = yield* http.execute(HttpClientRequest.get(url, { headers }))
      const text = yield* response.text
      return { status: response.status, headers: response.headers as Record<string, string>, text }
    }),
  )
  const result = await Effect.runPromise(program, signal === undefined ? undefined : { signal }).catch((cause) => {
    throw new APICallError({
      message: `Could not GET ${url}: ${String(cause)}`,
      url,
      requestBodyValues: undefined,
      cause,
      isRetryable: true,
    })
  })
  const fail = (message: string, isRetryable: boolean) =>
    new APICallError({
      message,
      url,
      requestBodyValues: undefined,
      statusCode: result.status,
      responseHeaders: result.headers,
      responseBody: result.text,
      isRetryable,
    })
  if (result.status < 200 || result.status >= 300) {
    throw fail(
      `GET ${url} answered ${result.status}: ${result.text.slice(0, 300)}`,
      result.status === 429 || result.status >= 500,
    )
  }
  let value: unknown
  try {
    value = JSON.parse(result.text)
  } catch {
    throw fail(`GET ${url} answered with a body that is not JSON: ${result.text.slice(0, 120)}`, false)
  }
  if (!isServerlessModelListSuccess(value)) {
    const decoded = Schema.decodeUnknownExit(ServerlessModelListSuccess)(value)
    const why = decoded._tag === "Failure" ? `: ${String(decoded.cause).slice(0, 600)}` : ""
    throw fail(`GET ${url} answered JSON that is not Friendli's model list${why}`, false)
  }
  return (value as ServerlessModelListSuccess).data
}
