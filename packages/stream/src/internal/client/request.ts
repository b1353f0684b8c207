/** The three endpoints, request validation with the generated guards and Schemas, and request bodies. */
import * as Core from "@friendli-stream/core"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import { InvalidRequestError } from "../../ClientError.ts"
import { decodeExplained } from "../explain.ts"

/** One endpoint: where it is, and how its request is checked. */
export interface Endpoint {
  readonly name: string
  readonly path: Core.EndpointPath
  readonly guard: (u: unknown) => boolean
  readonly explain: (u: unknown) => Result.Result<unknown, string>
}

const endpoint = <A>(
  name: string,
  path: Core.EndpointPath,
  guard: (u: unknown) => boolean,
  schema: Schema.Decoder<A>,
): Endpoint => ({ name, path, guard, explain: decodeExplained(schema) })

export const completions: Endpoint = endpoint(
  "completion",
  "/v1/completions",
  Core.isCompletionRequest,
  Core.CompletionRequest,
)
export const chat: Endpoint = endpoint(
  "chat completion",
  "/v1/chat/completions",
  Core.isChatCompletionRequest,
  Core.ChatCompletionRequest,
)
export const toolAssistedChat: Endpoint = endpoint(
  "tool-assisted chat completion",
  "/tools/v1/chat/completions",
  Core.isToolAssistedChatCompletionRequest,
  Core.ToolAssistedChatCompletionRequest,
)

/**
 * Checks a request against the endpoint's schema (the guard first, Schema to explain) and returns the JSON text
 * to send, with `stream` set as asked (`stream_options` dropped from a non-streamed request).
 */
export const requestBody = (
  api: Endpoint,
  request: unknown,
  stream: boolean,
): Result.Result<string, InvalidRequestError> => {
  if (!api.guard(request)) {
    const result = api.explain(request)
    if (Result.isFailure(result)) {
      const explanation = result.failure
      return Result.fail(
        new InvalidRequestError({
          message: `The ${api.name} request does not match the API schema, so it was not sent:\n${explanation}`,
          explanation,
        }),
      )
    }
  }
  const body: Record<string, unknown> = { ...(request as Record<string, unknown>), stream }
  if (!stream) delete body.stream_options
  return Result.succeed(JSON.stringify(body))
}
