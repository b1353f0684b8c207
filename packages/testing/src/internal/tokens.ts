/**
 * The mock model: a fixed vocabulary, a tokenizer for prompts and a deterministic generator.
 *
 * Generation depends only on the prompt and the seed, so a test can request the same completion twice
 * (streamed and not streamed, or on two runtimes) and get the same tokens.
 */
import { hashString, intBetween, mixSeeds, type Random, seeded } from "./prng.ts"

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

/** Splits text into mock tokens: each run of spaces plus the following word, or a punctuation mark. */
export const tokenize = (text: string): ReadonlyArray<number> => {
  const pieces = text.match(/\s*[^\s.,;!?]+|\s*[.,;!?]|\s+$/gu) ?? []
  return pieces.map((piece) => BY_TEXT.get(piece) ?? 50000 + (hashString(piece) % 20000))
}

/** One alternative at a position, for logprobs. */
export interface TopEntry {
  readonly id: number
  readonly text: string
  readonly logprob: number
}

/** One generated token. `text` may be shorter than the vocabulary text when a stop sequence cut it. */
export interface GeneratedToken {
  readonly id: number
  readonly text: string
  readonly logprob: number
  /** The most likely tokens at this position, most likely first; the sampled token is always first. */
  readonly top: ReadonlyArray<TopEntry>
}

/** A finished generation for one choice. */
export interface Generation {
  readonly tokens: ReadonlyArray<GeneratedToken>
  readonly text: string
  readonly finishReason: "stop" | "length"
  readonly seed: number
}

/** What a generation depends on. */
export interface GenerateInput {
  /** A hash of the prompt (text, token ids or messages). */
  readonly promptKey: number
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
}

/** The length used when neither `max_tokens` nor the end-of-sequence token bounds the output. */
export const DEFAULT_MAX_TOKENS = 64

const round = (x: number): number => Math.round(x * 1e4) / 1e4

const alternatives = (random: Random, chosen: VocabEntry, logprob: number): ReadonlyArray<TopEntry> => {
  const top: Array<TopEntry> = [{ id: chosen.id, text: chosen.text, logprob }]
  const seen = new Set([chosen.id])
  let lp = logprob
  while (top.length < 20) {
    const alt = VOCAB[Math.floor(random() * VOCAB.length)]!
    if (seen.has(alt.id)) continue
    seen.add(alt.id)
    lp = round(lp - 0.25 - random() * 1.5)
    top.push({ id: alt.id, text: alt.text, logprob: lp })
  }
  return top
}

const textIdFor = (text: string): number => BY_TEXT.get(text) ?? 50000 + (hashString(text) % 20000)

/**
 * Generates one choice. The sampled tokens depend on (prompt, seed, index) only; the logprobs come from a
 * separate random stream so asking for them never changes the text.
 */
export const generate = (input: GenerateInput): Generation => {
  // an explicit seed alone decides a choice; without one, the choice index does
  const seed =
    input.seed === undefined ? mixSeeds(input.promptKey, 0, input.index) : mixSeeds(input.promptKey, 1, input.seed)
  const random = seeded(seed)
  const lpRandom = seeded(mixSeeds(seed, 0x5eed))
  const natural = input.script !== undefined ? input.script.length : intBetween(random, 8, 40)
  const eos =
    input.ignoreEos && input.script === undefined ? Number.POSITIVE_INFINITY : Math.max(natural, input.minTokens)
  const cap = input.maxTokens ?? (Number.isFinite(eos) ? eos : DEFAULT_MAX_TOKENS)
  const count = Math.min(eos, cap)
  let finishReason: "stop" | "length" = eos <= cap ? "stop" : "length"

  const tokens: Array<GeneratedToken> = []
  for (let i = 0; i < count; i++) {
    let entry: VocabEntry
    if (input.script !== undefined) {
      const text = input.script[i]!
      entry = { id: textIdFor(text), text }
    } else {
      // punctuation now and then, never twice in a row, never first
      const prev = tokens[i - 1]
      const wantPunct = i > 0 && prev !== undefined && !PUNCT.includes(prev.text) && random() < 0.12
      entry = wantPunct
        ? VOCAB[VOCAB.length - PUNCT.length + Math.floor(random() * PUNCT.length)]!
        : VOCAB[Math.floor(random() * (VOCAB.length - PUNCT.length))]!
    }
    const logprob = round(-lpRandom() * 0.9)
    tokens.push({ id: entry.id, text: entry.text, logprob, top: alternatives(lpRandom, entry, logprob) })
  }

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
  return { tokens, text, finishReason, seed }
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
