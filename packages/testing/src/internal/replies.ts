/**
 * What the mock model says: a small built-in set of replies, chosen by the prompt, so that a demo looks like a model
 * talking. A reply is one opening sentence of the prompt's topic, then sentences from the topic and a common pool;
 * which ones depends on the prompt and the seed (or the choice index) only, so tests can rely on it.
 *
 * Some sentences hold characters outside ASCII (`café`, `東京`, `🙂`, `—`), so that byte-level faults cut through
 * multi-byte UTF-8 characters.
 */
import { hashString, mixSeeds, type Random } from "./prng.ts"

interface Topic {
  /** Whether the prompt is about this topic. */
  readonly match: RegExp
  /** Ways to begin the answer: consecutive seeds get different ones. */
  readonly openers: ReadonlyArray<string>
  /** Sentences that may follow. */
  readonly more: ReadonlyArray<string>
}

const COMMON: ReadonlyArray<string> = [
  " I am a mock model, so the details are made up, but the shape of the answer is real.",
  " Each word you see arrived as its own server-sent event.",
  " If you need more, ask a follow-up question and I will go on.",
  " In short: start simple, measure, and only then make it faster.",
  " A good answer is like a good café: small, warm and to the point 🙂.",
  " The same idea works in Tokyo (東京) as well as in Paris — only the latency changes.",
  " That is the naïve version; the careful one adds error handling and retries.",
  " Let me know if you want an example.",
]

const TOPICS: ReadonlyArray<Topic> = [
  {
    match: /\btest\b/i,
    openers: [
      " This is a test.",
      " Sure — this is a test.",
      " Test received: this is a test.",
      " Here you go: a test.",
    ],
    more: [" The stream is working as expected.", " Every token arrived in order.", " Nothing more to report."],
  },
  {
    match: /\b(hi|hello|hey|good (morning|evening))\b/i,
    openers: [
      " Hello! How can I help you today?",
      " Hi there! 🙂 What would you like to talk about?",
      " Hey! Nice to meet you.",
      " Good to see you! Ask me anything.",
    ],
    more: [
      " I can explain things, write short texts, or just chat.",
      " I answer one token at a time, so you can watch me think.",
    ],
  },
  {
    match: /\b(haiku|poem|poetry|verse)\b/i,
    openers: [
      " Silent GPUs hum,\ntokens drift like autumn leaves —\nthe stream never ends.",
      " Warm racks in the dark,\na prompt arrives, words flow back,\nfirst token, then more.",
      " Cold fans, patient light,\nthe model weighs every word —\nthen lets one go free.",
      " Bits fall like spring rain,\neach one a small answer;\nthe page fills slowly.",
    ],
    more: [" I hope you like it.", " Shall I write another one?"],
  },
  {
    match: /\b(stream|streaming|inference|token|tokens|latency|sse)\b/i,
    openers: [
      " Streaming inference sends each token to the client as soon as the model produces it.",
      " With streaming, the first words appear in milliseconds instead of after the whole answer is done.",
      " A streamed completion is one HTTP response that carries many small server-sent events.",
      " Streaming turns a long wait into a steady flow of tokens.",
    ],
    more: [
      " The client decodes the events, joins the deltas and shows the text as it grows.",
      " Time to first token measures how quickly the answer starts; tokens per second, how fast it goes on.",
      " If the reader stops, the connection closes and the server can stop generating.",
      " The last events carry the finish reason and the usage: how many tokens the prompt and the answer took.",
    ],
  },
  {
    match: /\b(weather|rain|sunny|forecast|temperature)\b/i,
    openers: [
      " I cannot look outside, but a mock forecast would say: mild, with a light breeze.",
      " Today's made-up weather: a few clouds, some sun, and no rain until the evening.",
      " The forecast is calm — about 21 °C, with a gentle wind from the west.",
      " Expect a quiet day: grey in the morning, clear skies by noon.",
    ],
    more: [" Take a light jacket, just in case.", " For a real forecast, ask a weather service."],
  },
  {
    match: /\b(code|function|typescript|javascript|program|bug)\b/i,
    openers: [
      " Here is a small function: `const add = (a: number, b: number) => a + b`.",
      " Start with a test that fails, then write the simplest code that makes it pass.",
      " The bug is usually in the part you were sure about.",
      " A short example says more than a long explanation:",
    ],
    more: [
      " Keep functions small and name them for what they do.",
      " Types catch many mistakes before the code ever runs.",
      " Read the error message twice; it often says exactly what is wrong.",
    ],
  },
  {
    match: /\b(story|once upon|tale)\b/i,
    openers: [
      " Once upon a time, in a small café by the river, a naïve little model learned to speak.",
      " Long ago, a server in 東京 dreamed of answering every question in one breath.",
      " There was once a token who wanted to arrive first.",
      " In a quiet data center, a model woke up and wrote its first word.",
    ],
    more: [
      " Every morning it greeted its users, and every night it counted the stars.",
      " It never told the whole story at once — only one word at a time.",
      " And when the stream ended, everyone asked for more.",
    ],
  },
]

const DEFAULT_TOPIC: Topic = {
  match: /$^/,
  openers: [
    " That is a good question.",
    " Let me explain it step by step.",
    " Here is a short answer.",
    " Good point — there are a few things to consider.",
    " The answer depends on the details, but the main idea is simple.",
    " I would start with the basics.",
  ],
  more: [
    " First, look at what is being asked; then, at what is already known.",
    " Most of the work is in the first step.",
    " There is no single right answer, but some are better than others.",
  ],
}

/** The topic of a prompt. */
const topicOf = (prompt: string): Topic => TOPICS.find((t) => t.match.test(prompt)) ?? DEFAULT_TOPIC

/**
 * The sentences of a reply, as many as wanted: the opening one (by `variant`), then the others in an order `random`
 * chooses, over and over if more text is needed.
 */
export function* replySentences(prompt: string, variant: number, random: Random): Generator<string> {
  const topic = topicOf(prompt)
  const start = (hashString(prompt) + variant) % topic.openers.length
  yield topic.openers[start]!
  const pool = [...topic.more, ...COMMON]
  for (;;) {
    // Fisher–Yates, so that every engine (V8, JavaScriptCore) gives the same order
    const order = [...pool]
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[order[i], order[j]] = [order[j]!, order[i]!]
    }
    for (const sentence of order) yield sentence
  }
}

/** How much a reasoning effort thinks: sentences of reasoning. */
const EFFORT_SENTENCES: Readonly<Record<string, number>> = {
  none: 0,
  minimal: 1,
  low: 2,
  medium: 4,
  high: 6,
  xhigh: 8,
  max: 10,
  ultracode: 10,
}

/** The number of reasoning sentences for an effort (`medium` when none or an unknown one is given). */
export const reasoningLength = (effort: string | undefined): number =>
  EFFORT_SENTENCES[effort ?? "medium"] ?? EFFORT_SENTENCES.medium!

const THOUGHTS: ReadonlyArray<string> = [
  " What do they actually need here?",
  " A short, clear answer is probably best.",
  " I should check that I understood the question.",
  " Maybe an example would help.",
  " Let me put the steps in order.",
  " I will keep it friendly and to the point.",
  " Is there anything they did not ask but will want to know?",
  " Avoid jargon unless it is needed.",
  " Double-check the facts before answering.",
  " Alright, I am ready to answer.",
]

/** The model's reasoning about a prompt: it restates the request, then thinks `sentences` sentences' worth. */
export const reasoningText = (prompt: string, sentences: number, key: number): string => {
  if (sentences <= 0) return ""
  const excerpt = prompt.trim().replace(/\s+/g, " ").slice(0, 60)
  const opening = excerpt === "" ? "The user sent a prompt." : `The user asks: “${excerpt}”.`
  const start = mixSeeds(key, 0x7e1) % THOUGHTS.length
  const thoughts = Array.from({ length: sentences - 1 }, (_, i) => THOUGHTS[(start + i) % THOUGHTS.length]!)
  return [opening, ...thoughts].join("")
}

/** Ways to say, before calling functions, that the model is about to: `{}` stands for the functions' names. */
const PREFACES: ReadonlyArray<string> = [
  "Let me look that up with {}.",
  "I will check that with {}.",
  "One moment — I will call {} for that.",
  "Good question; {} should know.",
]

/**
 * What a reasoning model says before its function calls, naming the functions (`a`, `a and b`, `a, b and c`); which
 * way it says it depends on `key` only.
 */
export const toolPreface = (names: ReadonlyArray<string>, key: number): string => {
  const list = names.length <= 1 ? (names[0] ?? "a tool") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`
  return PREFACES[mixSeeds(key, 0x70f) % PREFACES.length]!.replace("{}", list)
}
