/**
 * `POST /v1/completions`: reads the request and produces the streamed frames and the non-streamed body.
 */
import * as Core from "@friendli-stream/core"
import type { ValidationIssue } from "./errors.ts"
import type { Frame } from "./frames.ts"
import { hashString } from "./prng.ts"
import { type GeneratedToken, type Generation, generate, tokenize } from "./tokens.ts"
import { Checker, type GenerationParams, isObject, MAX_LOGPROBS, readGeneration } from "./validate.ts"

/** A completions request as either of its Schemas decodes it (with `prompt` or with `tokens`). */
type CompletionFields = Omit<Core.CompletionRequestWithPrompt, "prompt"> & {
  readonly prompt?: string | ReadonlyArray<string>
  readonly tokens?: ReadonlyArray<number>
}

/** A valid completions request. */
export interface CompletionsRequest extends GenerationParams {
  readonly promptText: string | undefined
  readonly promptTokens: ReadonlyArray<number>
  readonly logprobs: number | undefined
}

/**
 * Reads and validates a completions body: with `tokens` (and no `prompt`) against `CompletionRequestWithTokens`,
 * otherwise against `CompletionRequestWithPrompt`, so that the issues are those of the request the body meant.
 */
export const readCompletions = (
  body: unknown,
  model: string,
):
  | { readonly ok: true; readonly request: CompletionsRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const given = (key: string) => isObject(body) && body[key] !== undefined && body[key] !== null
  const withTokens = given("tokens") && !given("prompt")
  const c = new Checker<CompletionFields>(
    body,
    withTokens ? Core.CompletionRequestWithTokens : Core.CompletionRequestWithPrompt,
  )
  const gen = readGeneration(c, model)
  if (!withTokens && given("tokens")) c.issue(["prompt"], "Give either prompt or tokens, not both", "value_error")
  const prompt = c.request.prompt
  const promptText = typeof prompt === "string" ? prompt : prompt?.join("")
  const promptTokens = promptText !== undefined ? tokenize(promptText) : (c.request.tokens ?? [])
  const logprobs = c.atMost("logprobs", c.request.logprobs, MAX_LOGPROBS, "the most alternatives the mock model knows")
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  return { ok: true, request: { ...gen, promptText, promptTokens, logprobs } }
}

/** Identity of one response. */
export interface ResponseMeta {
  readonly id: string
  readonly created: number
  readonly model: string
}

/** What every chunk of a response carries: its identity, and the usage when it is the last one. */
export const chunkOf = <U>(
  meta: ResponseMeta,
  usage: U | undefined,
): { readonly id: string; readonly model: string; readonly created: number; readonly usage?: U } => ({
  id: meta.id,
  model: meta.model,
  created: meta.created,
  ...(usage === undefined ? {} : { usage }),
})

const generations = (req: CompletionsRequest): ReadonlyArray<Generation> => {
  const promptKey = req.promptText !== undefined ? hashString(req.promptText) : hashString(req.promptTokens.join(","))
  return Array.from({ length: req.n }, (_, index) =>
    generate({
      promptKey,
      promptText: req.promptText ?? "",
      seed: req.seeds?.[index],
      index,
      maxTokens: req.maxTokens,
      minTokens: req.minTokens,
      ignoreEos: req.ignoreEos,
      stop: req.stop,
    }),
  )
}

const usageOf = (req: CompletionsRequest, gens: ReadonlyArray<Generation>): Core.TextUsageEncoded => {
  const prompt = req.promptTokens.length
  const completion = gens.reduce((sum, g) => sum + g.tokens.length, 0)
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

const logprobsOf = (
  k: number,
  tokens: ReadonlyArray<GeneratedToken>,
  startOffset: number,
): Core.CompletionLogprobsEncoded => {
  const textOffset: Array<number> = []
  let offset = startOffset
  for (const t of tokens) {
    textOffset.push(offset)
    offset += t.text.length
  }
  return {
    text_offset: textOffset,
    token_logprobs: tokens.map((t) => t.logprob),
    tokens: tokens.map((t) => t.text),
    top_logprobs: tokens.map((t) => Object.fromEntries(t.top.slice(0, k).map((e) => [e.text, e.logprob]))),
  }
}

/** The streamed events of a completions request, `[DONE]` included. */
export const completionsFrames = (req: CompletionsRequest, meta: ResponseMeta): ReadonlyArray<Frame> => {
  const gens = generations(req)
  const frames: Array<Frame> = []
  const chunk = (choices: ReadonlyArray<Core.CompletionChunkChoiceEncoded>, usage?: Core.TextUsageEncoded): Frame => {
    const data: Core.CompletionChunkEncoded = { ...chunkOf(meta, usage), object: "text_completion", choices }
    return { kind: "data", data }
  }
  const promptLength = req.promptText?.length ?? 0
  const offsets = gens.map(() => promptLength)
  const longest = Math.max(...gens.map((g) => g.tokens.length))
  for (let step = 0; step <= longest; step++) {
    gens.forEach((g, index) => {
      const token = g.tokens[step]
      if (token !== undefined) {
        const logprobs = req.logprobs === undefined ? null : logprobsOf(req.logprobs, [token], offsets[index]!)
        offsets[index]! += token.text.length
        frames.push(chunk([{ index, text: token.text, token: token.id, finish_reason: null, logprobs }]))
      } else if (step === g.tokens.length) {
        frames.push(chunk([{ index, text: "", finish_reason: g.finishReason, logprobs: null }]))
      }
    })
  }
  if (req.includeUsage) frames.push(chunk([], usageOf(req, gens)))
  frames.push({ kind: "done" })
  return frames
}

/** The non-streamed response of a completions request: the same text as the stream, in one body. */
export const completionsBody = (
  req: CompletionsRequest,
  meta: ResponseMeta,
): Core.CompletionResponseEncoded & { readonly created: number } => {
  const gens = generations(req)
  const promptLength = req.promptText?.length ?? 0
  const body: Core.CompletionResponseEncoded = {
    id: meta.id,
    model: meta.model,
    object: "text_completion",
    choices: gens.map((g, index) => ({
      index,
      seed: g.seed,
      text: g.text,
      tokens: g.tokens.map((t) => t.id),
      finish_reason: g.finishReason,
      logprobs: req.logprobs === undefined ? null : logprobsOf(req.logprobs, g.tokens, promptLength),
    })),
    usage: usageOf(req, gens),
  }
  // Friendli's servers send `created` too, though the description of the response does not list it
  return { ...body, created: meta.created }
}
