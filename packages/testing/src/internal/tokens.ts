/**
 * The mock model: a tokenizer, a vocabulary for the alternatives of logprobs, and a deterministic generator that says
 * one of the built-in replies (`replies.ts`).
 *
 * Generation depends only on the prompt and the seed, so a test can request the same completion twice
 * (streamed and not streamed, or on two runtimes) and get the same tokens.
 */
import { hashString, intBetween, mixSeeds, type Random, seeded } from "./prng.ts"
import { replySentences } from "./replies.ts"

const WORDS = [
  "the",
  "a",
  "stream",
  "of",
  "tokens",
  "arrives",
  "one",
  "by",
  "in",
  "order",
  "and",
  "each",
  "carries",
  "its",
  "own",
  "id",
  "model",
  "writes",
  "such",
  "as",
  "this",
  "friendly",
  "server",
  "sends",
  "events",
  "to",
  "every",
  "client",
  "that",
  "listens",
  "with",
  "care",
  "river",
  "light",
  "quiet",
  "morning",
  "over",
  "hills",
  "where",
  "birds",
  "sing",
  "softly",
  "while",
  "clouds",
  "drift",
  "past",
  "old",
  "stone",
  "bridges",
  "under",
  "blue",
  "sky",
  "for",
  "long",
  "time",
  "people",
  "walk",
  "along",
  "paths",
  "near",
  "water",
  "is",
  "calm",
  "clear",
  "deep",
  "cold",
  "warm",
  "summer",
  "winter",
  "garden",
  "grows",
  "green",
  "leaves",
  "fall",
  "gently",
  "on",
  "ground",
  "after",
  "rain",
  "wind",
  "moves",
  "through",
  "trees",
  "small",
  "house",
  "stands",
  "at",
  "edge",
  "forest",
  "fire",
  "burns",
  "bright",
  "night",
  "stars",
  "shine",
  "above",
  "sea",
  "waves",
  "break",
  "against",
  "shore",
  "ships",
  "sail",
  "far",
  "away",
  "from",
  "home",
  "we",
  "remember",
  "stories",
  "told",
  "children",
  "laugh",
  "play",
  "until",
  "evening",
  "comes",
  "slowly",
  "day",
  "ends",
  "new",
  "begins",
  "again",
  "test",
  "value",
  "number",
  "seven",
  "twelve",
  "answer",
  "question",
  "result",
  "data",
  "signal",
  "buffer",
  "byte",
  "frame",
  "line",
  "chunk",
  "delta",
  "choice",
  "finish",
  "reason",
  "usage",
  "prompt",
  "completion",
]

/** Tokens outside ASCII, so that byte-level splits cut through multi-byte UTF-8 characters. */
const WIDE = [" café", " naïve", " 東京", " ß", " 🙂", " ünïcödé", " Ωmega", " 한국어"]
const PUNCT = [".", ",", ";", "!", "?"]

/** One vocabulary entry. */
export interface VocabEntry {
  readonly id: number
  readonly text: string
}

/** The mock vocabulary: ids are stable and text always starts with a space or is punctuation. */
export const VOCAB: ReadonlyArray<VocabEntry> = [...WORDS.map((w) => ` ${w}`), ...WIDE, ...PUNCT].map((text, i) => ({
  id: 1000 + i * 7,
  text,
}))

const BY_TEXT = new Map(VOCAB.map((e) => [e.text, e.id] as const))

const BY_ID = new Map(VOCAB.map((e) => [e.id, e.text] as const))

/** Texts outside the vocabulary seen so far, by their derived id (for detokenize); at most 65,536 are kept. */
const SEEN = new Map<number, string>()

/** The id of a token text: the vocabulary's, or one derived from the text. */
const textIdFor = (text: string): number => {
  const known = BY_TEXT.get(text)
  if (known !== undefined) return known
  const id = 50000 + (hashString(text) % 20000)
  if (SEEN.size < 65536) SEEN.set(id, text)
  return id
}

/** The text of a token id: the vocabulary's, or a text the mock tokenized or generated before; else `undefined`. */
export const textOfId = (id: number): string | undefined => BY_ID.get(id) ?? SEEN.get(id)

/** Splits text into the mock's token texts: each run of spaces plus the following word, or a punctuation mark. */
export const pieces = (text: string): ReadonlyArray<string> => text.match(/\s*[^\s.,;!?]+|\s*[.,;!?]|\s+$/gu) ?? []

/** Splits text into mock token ids (see {@link pieces}). */
export const tokenize = (text: string): ReadonlyArray<number> => pieces(text).map((piece) => textIdFor(piece))

/** One alternative at a position, for logprobs. */
export interface TopEntry {
  readonly id: number
  readonly text: string
  readonly logprob: number
}

/**
 * One generated token. `text` may be shorter than the vocabulary text when a stop sequence cut it. Its alternatives
 * are not stored: {@link topOf} derives them from `lpSeed` when a response asks for them, so a long generation costs
 * a few fields per token however many logprobs are asked for.
 */
export interface GeneratedToken {
  readonly id: number
  readonly text: string
  readonly logprob: number
  /** The seed of this position's logprobs (its own random stream: positions do not depend on each other). */
  readonly lpSeed: number
}

/** A finished generation for one choice. */
export interface Generation {
  readonly tokens: ReadonlyArray<GeneratedToken>
  /** The reasoning tokens, before the answer (empty unless reasoning was asked for). */
  readonly reasoning: ReadonlyArray<GeneratedToken>
  readonly text: string
  readonly finishReason: "stop" | "length"
  readonly seed: number
}

/** What a generation depends on. */
export interface GenerateInput {
  /** A hash of the prompt (text, token ids or messages). */
  readonly promptKey: number
  /** The prompt's text (the last user message in a chat), which chooses the reply's topic. */
  readonly promptText: string
  /** The request's seed for this choice, if any. */
  readonly seed: number | undefined
  /** The choice index. */
  readonly index: number
  readonly maxTokens: number | undefined
  readonly minTokens: number
  readonly ignoreEos: boolean
  readonly stop: ReadonlyArray<string>
  /** When given, the generation emits exactly these strings as tokens (used for tool arguments and JSON). */
  readonly script?: ReadonlyArray<string>
  /**
   * Reasoning tokens that come before the answer: they count towards `max_tokens` (a reasoning that reaches it
   * leaves no room for the answer) but are not part of `tokens`.
   */
  readonly reasoning?: ReadonlyArray<string>
  /** A chat message: the answer does not begin with a space. */
  readonly chat?: boolean
}

/** The length used when neither `max_tokens` nor the end-of-sequence token bounds the output. */
export const DEFAULT_MAX_TOKENS = 64

const round = (x: number): number => Math.round(x * 1e4) / 1e4

/** The log probability of the sampled token: the first draw of its position's random stream. */
const sampledLogprob = (random: Random): number => round(-random() * 0.9)

/**
 * The `k` (at most 20) most likely tokens at a token's position, most likely first; the sampled token is always
 * first. Derived from the token's own seed on each call, so the same token always gives the same alternatives.
 */
export const topOf = (token: GeneratedToken, k: number): ReadonlyArray<TopEntry> => {
  if (k <= 0) return []
  const random = seeded(token.lpSeed)
  const logprob = sampledLogprob(random)
  const top: Array<TopEntry> = [{ id: token.id, text: token.text, logprob }]
  const seen = new Set([token.id])
  let lp = logprob
  const want = Math.min(k, 20)
  while (top.length < want) {
    const alt = VOCAB[Math.floor(random() * VOCAB.length)]!
    if (seen.has(alt.id)) continue
    seen.add(alt.id)
    lp = round(lp - 0.25 - random() * 1.5)
    top.push({ id: alt.id, text: alt.text, logprob: lp })
  }
  return top
}

/**
 * A generation whose answer tokens are produced as they are read, so that a long answer costs nothing up front.
 *
 * @since 0.3.0
 */
export interface LazyGeneration {
  readonly seed: number
  /** The reasoning tokens, before the answer (empty unless reasoning was asked for). */
  readonly reasoning: ReadonlyArray<GeneratedToken>
  /** How many answer tokens `tokens` yields. */
  readonly length: number
  readonly finishReason: "stop" | "length"
  /** The answer tokens, each made when it is read; read it once. */
  readonly tokens: Iterator<GeneratedToken>
}

/** A generation before stop sequences: its length and finish reason are known before any token is made. */
const start = (input: GenerateInput): LazyGeneration => {
  // an explicit seed alone decides a choice; without one, the choice index does
  const seed =
    input.seed === undefined ? mixSeeds(input.promptKey, 0, input.index) : mixSeeds(input.promptKey, 1, input.seed)
  const random = seeded(seed)
  const lpBase = mixSeeds(seed, 0x5eed)
  const sentences = replySentences(input.promptText, input.seed ?? input.index, random)
  const reply: Array<string> = input.script === undefined ? [...pieces(sentences.next().value ?? "")] : []
  // a chat message starts with its first word, a completion continues the prompt after a space
  if (input.chat === true && reply[0] !== undefined) reply[0] = reply[0].trimStart()
  // the reply's natural end: its opening sentence and one or two more, unless a script says what to emit
  if (input.script === undefined) {
    const extra = intBetween(random, 1, 2)
    for (let i = 0; i < extra; i++) reply.push(...pieces(sentences.next().value ?? ""))
  }
  const natural = input.script !== undefined ? input.script.length : reply.length
  const eos =
    input.ignoreEos && input.script === undefined ? Number.POSITIVE_INFINITY : Math.max(natural, input.minTokens)
  const thought = input.reasoning ?? []
  const cap = input.maxTokens ?? (Number.isFinite(eos) ? thought.length + eos : DEFAULT_MAX_TOKENS)
  const reasoning = thought.slice(0, cap)
  const room = cap - reasoning.length
  const count = Math.min(eos, room)

  // each position's logprobs come from its own seed, so a token can be made without the ones before it
  const emit = (text: string, position: number): GeneratedToken => {
    const lpSeed = mixSeeds(lpBase, position)
    return { id: textIdFor(text), text, logprob: sampledLogprob(seeded(lpSeed)), lpSeed }
  }
  const script = input.script
  function* answer(): Generator<GeneratedToken, void> {
    // `reply` is consumed from the front, so a long answer does not keep its whole text
    let next = 0
    for (let i = 0; i < count; i++) {
      if (script !== undefined) yield emit(script[i]!, reasoning.length + i)
      else {
        // past the natural end (min_tokens, ignore_eos), the model goes on talking
        while (reply.length - next <= 0) {
          reply.length = 0
          next = 0
          reply.push(...pieces(sentences.next().value ?? ""))
        }
        yield emit(reply[next++]!, reasoning.length + i)
      }
    }
  }
  return {
    seed,
    reasoning: reasoning.map((text, position) => emit(text, position)),
    length: count,
    finishReason: eos <= room ? "stop" : "length",
    tokens: answer(),
  }
}

/**
 * Generates one choice. The sampled tokens depend on (prompt, seed, index) only; the logprobs come from
 * separate random streams (one per position) so asking for them never changes the text.
 */
export const generate = (input: GenerateInput): Generation => {
  const lazy = start(input)
  const tokens: Array<GeneratedToken> = []
  for (let next = lazy.tokens.next(); next.done !== true; next = lazy.tokens.next()) tokens.push(next.value)
  let finishReason = lazy.finishReason

  // stop sequences: cut at the earliest match and drop the match itself
  let text = tokens.map((t) => t.text).join("")
  let cut = -1
  for (const s of input.stop) {
    if (s.length === 0) continue
    const at = text.indexOf(s)
    if (at >= 0 && (cut < 0 || at < cut)) cut = at
  }
  if (cut >= 0) {
    const kept: Array<GeneratedToken> = []
    let offset = 0
    for (const token of tokens) {
      if (offset >= cut) break
      const end = offset + token.text.length
      kept.push(end <= cut ? token : { ...token, text: token.text.slice(0, cut - offset) })
      offset = end
    }
    tokens.length = 0
    tokens.push(...kept)
    text = text.slice(0, cut)
    finishReason = "stop"
  }
  return { tokens, reasoning: lazy.reasoning, text, finishReason, seed: lazy.seed }
}

/**
 * Generates one choice as {@link generate} does, making its tokens as they are read. A request with stop sequences
 * is generated in full first (where it stops depends on the whole text).
 */
export const generateLazily = (input: GenerateInput): LazyGeneration => {
  if (input.stop.every((s) => s.length === 0)) return start(input)
  const gen = generate(input)
  return {
    seed: gen.seed,
    reasoning: gen.reasoning,
    length: gen.tokens.length,
    finishReason: gen.finishReason,
    tokens: gen.tokens.values(),
  }
}

/** Splits a string into token-sized pieces (2 to 6 code points each), deterministically. */
export const fragment = (text: string, key: number): ReadonlyArray<string> => {
  const random = seeded(mixSeeds(key, hashString(text)))
  const points = Array.from(text)
  const out: Array<string> = []
  for (let i = 0; i < points.length; ) {
    const n = intBetween(random, 2, 6)
    out.push(points.slice(i, i + n).join(""))
    i += n
  }
  return out
}

/** Picks a few vocabulary words (without the leading space), for generated string values. */
export const words = (random: Random, count: number): string =>
  Array.from({ length: count }, () => VOCAB[Math.floor(random() * WORDS.length)]!.text.trim()).join(" ")
