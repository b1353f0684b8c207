/**
 * The small non-streamed calls beside the streams: `POST /v1/tokenize`, `POST /v1/detokenize` (the mock model's
 * tokenizer, so `detokenize(tokenize(text))` gives the text back) and `GET /serverless/v1/models` (the catalog).
 */
import * as Core from "@friendli-stream/core"
import type { ValidationIssue } from "./errors.ts"
import { textOfId, tokenize } from "./tokens.ts"
import { Checker, type Json } from "./validate.ts"

type Read<A> =
  | { readonly ok: true; readonly body: A }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> }

/** `{"tokens": [...]}` for `{"prompt"}`. */
export const tokenizeBody = (body: unknown, container: boolean): Read<Core.ContainerTokenizationSuccessEncoded> => {
  const c = new Checker<Core.ContainerTokenizationBody>(
    body,
    container ? Core.ContainerTokenizationBody : Core.ServerlessTokenizationBody,
  )
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  return { ok: true, body: { tokens: tokenize(c.request.prompt ?? "") } }
}

/** `{"text"}` for `{"tokens"}`; an id the mock model does not know is a 422 naming it. */
export const detokenizeBody = (body: unknown, container: boolean): Read<Core.ContainerDetokenizationSuccessEncoded> => {
  const c = new Checker<Core.ContainerDetokenizationBody>(
    body,
    container ? Core.ContainerDetokenizationBody : Core.ServerlessDetokenizationBody,
  )
  const tokens = c.request.tokens ?? []
  const texts = tokens.map((id) => textOfId(id))
  const unknown = texts.indexOf(undefined)
  if (unknown >= 0) {
    c.issue(
      ["tokens", unknown],
      `Unknown token id ${tokens[unknown]} (not in the mock model's vocabulary)`,
      "value_error",
      tokens[unknown],
    )
  }
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  return { ok: true, body: { text: texts.join("") } }
}

/** The models the catalog lists when the mock was not given any. */
export const DEFAULT_MODELS: ReadonlyArray<string> = [
  "meta-llama-3.1-8b-instruct",
  "meta-llama-3.3-70b-instruct",
  "whisper-large-v3",
]

/** `{"data": [ModelCatalogResponseItem, ...]}`, one per model, with `created` from the mock's clock. */
export const modelsBody = (models: ReadonlyArray<string>, created: number): Json => ({
  data: models.map((id) => ({
    id,
    hugging_face_id: "",
    name: id,
    created,
    context_length: 4096,
    max_completion_tokens: 4096,
    pricing: { input: "0.0000001", output: "0.0000001", prompt: "0.0000001", completion: "0.0000001" },
    functionality: { tool_call: true, builtin_tool: false, parallel_tool_call: true, structured_output: true },
    description: `The mock model, serving as ${id}.`,
    deprecation_date: null,
    hugging_face_url: `https://huggingface.co/mock/${id}`,
    license: "https://opensource.org/licenses/MIT",
  })),
})
