/**
 * `friendli.models()`: the client's `models.list()` (`GET /v1/models` of the serverless API), with the provider's
 * `fetch`, token and headers. A dedicated or container provider fails with the client's `InvalidRequestError`
 * (nothing is sent); an HTTP error is an `APICallError`; a body that is not a model list is `InvalidResponseError`.
 */

import type { ResolvedClientOptions } from "@friendli-stream/client"
import type { ServerlessModelListSuccess } from "@friendli-stream/core"
import type * as HttpClient from "effect/http/HttpClient"
import { runCreate } from "./call.ts"

/** Lists the models of the serverless catalogue the provider points at. */
export const listModels = async (
  http: HttpClient.HttpClient,
  options: ResolvedClientOptions,
  signal: AbortSignal | undefined,
): Promise<ServerlessModelListSuccess["data"]> => {
  const answered = await runCreate({ http, options, path: "/v1/models", body: undefined, signal }, (client) =>
    client.models.list(),
  )
  return answered.value.data
}
