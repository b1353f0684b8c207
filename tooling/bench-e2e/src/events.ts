/** The chat stream every row reads: `chunks` chat completion chunks as server-sent events, then `data: [DONE]`. */

const WORDS = [" the", " a", " stream", " token", " of", " and", " model", " Friendli", " fast", " é", " 世界", " 😀"]

/** The model every request names. */
export const MODEL = "meta-llama-3.1-8b-instruct"

/** The chat request every row sends. */
export const CHAT_REQUEST = {
  model: MODEL,
  messages: [{ role: "user" as const, content: "Say something." }],
}

const chunk = (delta: string, finish: string | null): string =>
  `data: {"id":"chatcmpl-5b2f0c1e6a9d4e7f8a1b2c3d","object":"chat.completion.chunk","created":1733382157,"model":"${MODEL}","choices":[{"index":0,"delta":${delta},"finish_reason":${finish === null ? "null" : `"${finish}"`},"logprobs":null}]}\n\n`

/** The events of one stream: `chunks` chunks (the last one says `stop`), then `[DONE]` (its own event). */
export const chatEvents = (chunks: number): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < chunks - 1; i++) {
    const word = WORDS[i % WORDS.length] as string
    out.push(
      chunk(
        i === 0 ? `{"role":"assistant","content":${JSON.stringify(word)}}` : `{"content":${JSON.stringify(word)}}`,
        null,
      ),
    )
  }
  out.push(chunk("{}", "stop"))
  out.push("data: [DONE]\n\n")
  return out
}
