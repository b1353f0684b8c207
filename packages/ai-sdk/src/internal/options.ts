/**
 * `providerOptions.friendli`: checked field by field (a wrong type fails the call with `InvalidArgumentError`
 * naming the field) and turned into request fields.
 */
import { InvalidArgumentError, type SharedV4ProviderOptions, type SharedV4Warning } from "@ai-sdk/provider"

/** The reasoning efforts Friendli's API accepts. */
export const REASONING_EFFORTS = ["minimal", "low", "medium", "high", "xhigh", "max", "ultracode"] as const

/**
 * `providerOptions.friendli`: Friendli's request fields that the AI SDK's call settings do not cover.
 *
 * @since 0.2.0
 */
export interface FriendliProviderOptions {
  /** `reasoning_effort`: how much a reasoning model reasons (overrides the call's `reasoning`). @since 0.2.0 */
  readonly reasoningEffort?: (typeof REASONING_EFFORTS)[number] | undefined
  /** `reasoning_budget`: the most tokens a reasoning model may spend reasoning. @since 0.2.0 */
  readonly reasoningBudget?: number | undefined
  /** `include_reasoning`: whether parsed reasoning is sent at all. @since 0.2.0 */
  readonly includeReasoning?: boolean | undefined
  /** `parse_reasoning`: whether reasoning arrives apart (`reasoning_content`) or inline in the text. @since 0.2.0 */
  readonly parseReasoning?: boolean | undefined
  /** `n`: how many answers; the first is the call's text, the others are in `providerMetadata.friendli.choices`. @since 0.2.0 */
  readonly n?: number | undefined
  /** `min_p`. @since 0.2.0 */
  readonly minP?: number | undefined
  /** `repetition_penalty`. @since 0.2.0 */
  readonly repetitionPenalty?: number | undefined
  /** `logit_bias`: token id -> bias. @since 0.2.0 */
  readonly logitBias?: Readonly<Record<string, number>> | undefined
  /** `resume_generation` (tool-assisted chat, i.e. with built-in tools). @since 0.2.0 */
  readonly resumeGeneration?: boolean | undefined
  /** `chat_template_kwargs`, e.g. `{ enable_thinking: false }`. @since 0.2.0 */
  readonly chatTemplateKwargs?: Readonly<Record<string, unknown>> | undefined
  /** `logprobs` (`true`) and `top_logprobs` (a number); they arrive in `providerMetadata.friendli.logprobs`. @since 0.2.0 */
  readonly logprobs?: boolean | number | undefined
  /** `parallel_tool_calls`. @since 0.2.0 */
  readonly parallelToolCalls?: boolean | undefined
}

/** A check of one option's value. */
export type Check = (value: unknown) => boolean
/** How one option is checked, and what the error says it must be. */
export type Fields<T> = Record<keyof T, { readonly check: Check; readonly expected: string }>
export const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)
export const isNumber: Check = (u) => typeof u === "number" && Number.isFinite(u)
const isBoolean: Check = (u) => typeof u === "boolean"
const isCount: Check = (u) => Number.isInteger(u) && (u as number) >= 1

const FIELDS: Fields<FriendliProviderOptions> = {
  reasoningEffort: {
    check: (u) => (REASONING_EFFORTS as ReadonlyArray<unknown>).includes(u),
    expected: `one of ${REASONING_EFFORTS.map((e) => JSON.stringify(e)).join(", ")}`,
  },
  reasoningBudget: { check: isCount, expected: "a whole number >= 1" },
  includeReasoning: { check: isBoolean, expected: "a boolean" },
  parseReasoning: { check: isBoolean, expected: "a boolean" },
  n: { check: isCount, expected: "a whole number >= 1" },
  minP: { check: isNumber, expected: "a number" },
  repetitionPenalty: { check: isNumber, expected: "a number" },
  logitBias: {
    check: (u) => isRecord(u) && Object.values(u).every(isNumber),
    expected: "an object of token ids to numbers",
  },
  resumeGeneration: { check: isBoolean, expected: "a boolean" },
  chatTemplateKwargs: { check: isRecord, expected: "an object" },
  logprobs: {
    check: (u) => isBoolean(u) || (Number.isInteger(u) && (u as number) >= 0),
    expected: "a boolean or a whole number >= 0",
  },
  parallelToolCalls: { check: isBoolean, expected: "a boolean" },
}

/**
 * `providerOptions.friendli` checked against `fields`: a value of the wrong type throws `InvalidArgumentError`
 * naming the option, a key not among them is a warning.
 */
export const checkProviderOptions = <T>(
  providerOptions: SharedV4ProviderOptions | undefined,
  fields: Fields<T>,
  warnings: Array<SharedV4Warning>,
): Partial<T> => {
  const given = providerOptions?.friendli
  if (given === undefined) return {}
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue
    const field = fields[key as keyof T]
    if (field === undefined) {
      warnings.push({
        type: "other",
        message: `providerOptions.friendli.${key} is not an option of the Friendli provider; it was ignored. Known: ${Object.keys(fields).join(", ")}.`,
      })
    } else if (!field.check(value)) {
      throw new InvalidArgumentError({
        argument: `providerOptions.friendli.${key}`,
        message: `providerOptions.friendli.${key} must be ${field.expected}, got ${JSON.stringify(value)}.`,
      })
    }
  }
  return given as Partial<T>
}

/** The checked language-model options, and a warning for each key that is not one of them. */
export const readProviderOptions = (
  providerOptions: SharedV4ProviderOptions | undefined,
  warnings: Array<SharedV4Warning>,
): FriendliProviderOptions => checkProviderOptions(providerOptions, FIELDS, warnings)

/** The request fields of the options (only those given). */
export const requestFieldsOf = (o: FriendliProviderOptions): Record<string, unknown> => {
  const fields: Record<string, unknown> = {
    reasoning_effort: o.reasoningEffort,
    reasoning_budget: o.reasoningBudget,
    include_reasoning: o.includeReasoning,
    parse_reasoning: o.parseReasoning,
    n: o.n,
    min_p: o.minP,
    repetition_penalty: o.repetitionPenalty,
    logit_bias: o.logitBias,
    chat_template_kwargs: o.chatTemplateKwargs,
    parallel_tool_calls: o.parallelToolCalls,
  }
  if (o.logprobs !== undefined && o.logprobs !== false) {
    fields.logprobs = true
    if (typeof o.logprobs === "number" && o.logprobs > 0) fields.top_logprobs = o.logprobs
  }
  return fields
}
