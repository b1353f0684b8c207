/**
 * `POST /v1/completions`: reads the request and produces the streamed frames and the non-streamed body.
 */
import * as Core from "@friendli-stream/core"
import type { ValidationIssue } from "./errors.ts"
import { hashString } from "./prng.ts"
import type { Frame } from "./sse.ts"
import { type GeneratedToken, type Generation, generate, tokenize } from "./tokens.ts"
import { Checker, type GenerationParams, type Json, MAX_LOGPROBS, readGeneration } from "./validate.ts"

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
  body: Json,
  model: string,
):
  | { readonly ok: true; readonly request: CompletionsRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const withTokens =
    body.tokens !== undefined && body.tokens !== null && (body.prompt === undefined || body.prompt === null)
  const c = new Checker(body, withTokens ? Core.CompletionRequestWithTokens : Core.CompletionRequestWithPrompt)
  const gen = readGeneration(c, model)
  if (!withTokens && c.value("tokens") !== undefined) {
    c.issue(["prompt"], "Give either prompt or tokens, not both", "value_error")
  }
  const promptText = c.string("prompt")
  const tokens = c.array("tokens")?.filter((t): t is number => typeof t === "number")
  const promptTokens = promptText !== undefined ? tokenize(promptText) : (tokens ?? [])
  const logprobs = c.atMost("logprobs", MAX_LOGPROBS, "the most alternatives the mock model knows")
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  return { ok: true, request: { ...gen, promptText, promptTokens, logprobs } }
}

/** Identity of one response. */
export interface ResponseMeta {
  readonly id: string
  readonly created: number
  readonly model: string
}

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

const usageOf = (req: CompletionsRequest, gens: ReadonlyArray<Generation>) => {
  const prompt = req.promptTokens.length
  const completion = gens.reduce((sum, g) => sum + g.tokens.length, 0)
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

const logprobsOf = (k: number, tokens: ReadonlyArray<GeneratedToken>, startOffset: number) => {
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
  const base = { id: meta.id, model: meta.model, object: "text_completion" }
  const promptLength = req.promptText?.length ?? 0
  const offsets = gens.map(() => promptLength)
  const longest = Math.max(...gens.map((g) => g.tokens.length))
  for (let step = 0; step <= longest; step++) {
    gens.forEach((g, index) => {
      const token = g.tokens[step]
      if (token !== undefined) {
        const logprobs = req.logprobs === undefined ? null : logprobsOf(req.logprobs, [token], offsets[index]!)
        offsets[index]! += token.text.length
        frames.push({
          kind: "data",
          data: {
            ...base,
            choices: [{ index, text: token.text, token: token.id, finish_reason: null, logprobs }],
            created: meta.created,
          },
        })
      } else if (step === g.tokens.length) {
        frames.push({
          kind: "data",
          data: {
            ...base,
            choices: [{ index, text: "", finish_reason: g.finishReason, logprobs: null }],
            created: meta.created,
          },
        })
      }
    })
  }
  if (req.includeUsage) {
    frames.push({ kind: "data", data: { ...base, choices: [], usage: usageOf(req, gens), created: meta.created } })
  }
  frames.push({ kind: "done" })
  return frames
}

/** The non-streamed response of a completions request: the same text as the stream, in one body. */
export const completionsBody = (req: CompletionsRequest, meta: ResponseMeta): Json => {
  const gens = generations(req)
  const promptLength = req.promptText?.length ?? 0
  return {
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
    created: meta.created,
  }
}
