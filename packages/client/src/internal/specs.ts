/** The checks of each non-streamed response: the compiled guard first (fast), the Schema to explain a mismatch. */
import * as Core from "@friendli-stream/core"
import type { ResponseSpec } from "./engine.ts"

const spec = <A>(guard: (u: unknown) => boolean, schema: ResponseSpec<A>["schema"]): ResponseSpec<A> => ({
  guard,
  schema,
})

export const completionResponse: ResponseSpec<Core.CompletionResponse> = spec(
  Core.isCompletionResponse,
  Core.CompletionResponse,
)

export const chatResponse: ResponseSpec<Core.ChatCompletionResponse> = spec(
  Core.isChatCompletionResponse,
  Core.ChatCompletionResponse,
)

export const responsesResponse: ResponseSpec<Core.ResponsesSuccess> = spec(
  Core.isResponsesSuccess,
  Core.ResponsesSuccess,
)

export const messagesResponse: ResponseSpec<Core.ServerlessMessagesSuccess> = spec(
  Core.isServerlessMessagesSuccess,
  Core.ServerlessMessagesSuccess,
)

export const transcriptionResponse: ResponseSpec<Core.AudioTranscriptionResult> = spec(
  Core.isAudioTranscriptionResult,
  Core.AudioTranscriptionResult,
)

export const tokenizeResponse: ResponseSpec<Core.ServerlessTokenizationSuccess> = spec(
  Core.isServerlessTokenizationSuccess,
  Core.ServerlessTokenizationSuccess,
)

export const detokenizeResponse: ResponseSpec<Core.ServerlessDetokenizationSuccess> = spec(
  Core.isServerlessDetokenizationSuccess,
  Core.ServerlessDetokenizationSuccess,
)

export const modelsResponse: ResponseSpec<Core.ServerlessModelListSuccess> = spec(
  Core.isServerlessModelListSuccess,
  Core.ServerlessModelListSuccess,
)
