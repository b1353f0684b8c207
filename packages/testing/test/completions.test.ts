import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { accumulateText, choicesOf, completionsBody, newMock, post, readStream } from "./helpers.ts"

const PATHS = {
  serverless: "/serverless/v1/completions",
  dedicated: "/dedicated/v1/completions",
  container: "/v1/completions",
} as const

describe("completions", () => {
  for (const [kind, path] of Object.entries(PATHS)) {
    it(`streams text_completion chunks then [DONE] on the ${kind} path`, async () => {
      const mock = newMock()
      const model = kind === "dedicated" ? "abc123def" : "meta-llama-3.1-8b-instruct"
      const res = await post(mock, path, completionsBody({ model }))
      assert.equal(res.status, 200)
      assert.equal(res.headers.get("content-type"), "text/event-stream")
      const { chunks, done } = await readStream(res)
      assert.equal(done, true)
      assert.ok(chunks.length >= 2)
      const id = chunks[0]!.id as string
      assert.match(id, /^cmpl-[0-9a-f]{32}$/)
      for (const chunk of chunks) {
        assert.equal(chunk.id, id)
        assert.equal(chunk.object, "text_completion")
        assert.equal(chunk.model, model)
        assert.equal(typeof chunk.created, "number")
      }
      const last = choicesOf(chunks.at(-1)!)[0]!
      assert.equal(last.text, "")
      assert.equal("token" in last, false)
      assert.ok(last.finish_reason === "stop" || last.finish_reason === "length")
      for (const chunk of chunks.slice(0, -1)) {
        const c = choicesOf(chunk)[0]!
        assert.equal(c.finish_reason, null)
        assert.equal(c.logprobs, null)
        assert.equal(typeof c.token, "number")
        assert.ok((c.text ?? "").length > 0)
      }
      assert.equal(mock.lastRequest()?.deployment, kind)
      assert.equal(mock.lastRequest()?.api, "completions")
    })
  }

  it("accepts a dedicated endpoint id with an adapter route and echoes it as the model", async () => {
    const res = await post(newMock(), PATHS.dedicated, completionsBody({ model: "ep123:my-adapter" }))
    const { chunks } = await readStream(res)
    assert.equal(chunks[0]!.model, "ep123:my-adapter")
  })

  it("answers a container request without a model with the container's model", async () => {
    const res = await post(newMock({ containerModel: "my-llm" }), PATHS.container, { prompt: "Hi", stream: true })
    const { chunks } = await readStream(res)
    assert.equal(chunks[0]!.model, "my-llm")
  })

  it("generates the same tokens for the same prompt and seed, and other tokens for another seed", async () => {
    const mock = newMock()
    const read = async (seed: number) => {
      const { chunks } = await readStream(await post(mock, PATHS.serverless, completionsBody({ seed, max_tokens: 20 })))
      return chunks.map((c) => choicesOf(c)[0]!.token)
    }
    assert.deepEqual(await read(7), await read(7))
    assert.notDeepEqual(await read(7), await read(8))
  })

  it("generates tokens from the prompt when no seed is given", async () => {
    const mock = newMock()
    const read = async (prompt: string) =>
      accumulateText(
        (await readStream(await post(mock, PATHS.serverless, completionsBody({ prompt, max_tokens: 12 })))).chunks,
      ).get(0)
    assert.equal(await read("one prompt"), await read("one prompt"))
    assert.notEqual(await read("one prompt"), await read("another prompt"))
  })

  it("stops at max_tokens with finish_reason length", async () => {
    const res = await post(newMock(), PATHS.serverless, completionsBody({ max_tokens: 3, ignore_eos: true }))
    const { chunks } = await readStream(res)
    assert.equal(chunks.length, 4)
    assert.equal(choicesOf(chunks[3]!)[0]!.finish_reason, "length")
  })

  it("ends with finish_reason stop when the model ends before max_tokens", async () => {
    const res = await post(newMock(), PATHS.serverless, completionsBody({ max_tokens: 4000 }))
    const { chunks } = await readStream(res)
    assert.equal(choicesOf(chunks.at(-1)!)[0]!.finish_reason, "stop")
    assert.ok(chunks.length - 1 >= 8 && chunks.length - 1 <= 40)
  })

  it("generates exactly max_tokens with ignore_eos and at least min_tokens", async () => {
    const mock = newMock()
    const long = await readStream(
      await post(mock, PATHS.serverless, completionsBody({ max_tokens: 100, ignore_eos: true })),
    )
    assert.equal(long.chunks.length - 1, 100)
    const min = await readStream(
      await post(mock, PATHS.serverless, completionsBody({ min_tokens: 45, max_tokens: 50 })),
    )
    assert.ok(min.chunks.length - 1 >= 45)
  })

  it("cuts the text before a stop sequence and finishes with stop", async () => {
    const mock = newMock()
    const body = completionsBody({ seed: 3, max_tokens: 30, ignore_eos: true })
    const full = accumulateText((await readStream(await post(mock, PATHS.serverless, body))).chunks).get(0)!
    const words = full.trim().split(/\s+/)
    const stopWord = ` ${words[5]}`
    const expected = full.slice(0, full.indexOf(stopWord))
    const { chunks } = await readStream(await post(mock, PATHS.serverless, { ...body, stop: ["zzz-never", stopWord] }))
    assert.equal(accumulateText(chunks).get(0), expected)
    assert.equal(choicesOf(chunks.at(-1)!)[0]!.finish_reason, "stop")
  })

  it("streams n choices, each with its own index, text and finish chunk", async () => {
    const res = await post(
      newMock(),
      PATHS.serverless,
      completionsBody({ n: 3, max_tokens: 5, ignore_eos: true, seed: 1 }),
    )
    const { chunks } = await readStream(res)
    assert.equal(chunks.length, 18)
    for (const chunk of chunks) assert.equal(choicesOf(chunk).length, 1)
    const texts = accumulateText(chunks)
    assert.deepEqual([...texts.keys()].sort(), [0, 1, 2])
    assert.equal(new Set(texts.values()).size, 3)
    const finishes = chunks.flatMap(choicesOf).filter((c) => c.finish_reason !== null)
    assert.deepEqual(finishes.map((c) => c.index).sort(), [0, 1, 2])
  })

  it("uses one seed per choice when seed is a list", async () => {
    const mock = newMock()
    const one = accumulateText(
      (await readStream(await post(mock, PATHS.serverless, completionsBody({ seed: [5], max_tokens: 8 })))).chunks,
    )
    const two = accumulateText(
      (await readStream(await post(mock, PATHS.serverless, completionsBody({ n: 2, seed: [9, 5], max_tokens: 8 }))))
        .chunks,
    )
    assert.equal(two.get(1), one.get(0))
  })

  it("returns integer top-k logprobs per token when logprobs is set", async () => {
    const prompt = "Say this is a test"
    const res = await post(
      newMock(),
      PATHS.serverless,
      completionsBody({ prompt, logprobs: 3, max_tokens: 4, ignore_eos: true }),
    )
    const { chunks } = await readStream(res)
    let offset = prompt.length
    for (const chunk of chunks.slice(0, -1)) {
      const c = choicesOf(chunk)[0]!
      const lp = c.logprobs as {
        text_offset: Array<number>
        token_logprobs: Array<number>
        tokens: Array<string>
        top_logprobs: Array<Record<string, number>>
      }
      assert.deepEqual(lp.tokens, [c.text])
      assert.deepEqual(lp.text_offset, [offset])
      offset += c.text!.length
      assert.ok(lp.token_logprobs[0]! <= 0)
      const top = Object.entries(lp.top_logprobs[0]!)
      assert.equal(top.length, 3)
      assert.deepEqual(top[0], [c.text, lp.token_logprobs[0]])
      assert.ok(top.every(([, v], i) => i === 0 || v <= top[i - 1]![1]))
    }
  })

  it("does not change the text when logprobs are asked for", async () => {
    const mock = newMock()
    const plain = accumulateText(
      (await readStream(await post(mock, PATHS.serverless, completionsBody({ max_tokens: 10 })))).chunks,
    )
    const withLp = accumulateText(
      (await readStream(await post(mock, PATHS.serverless, completionsBody({ max_tokens: 10, logprobs: 5 })))).chunks,
    )
    assert.deepEqual(withLp, plain)
  })

  it("ends with a usage chunk with empty choices when include_usage is set", async () => {
    const body = completionsBody({
      prompt: "one two three four five",
      max_tokens: 10,
      ignore_eos: true,
      stream_options: { include_usage: true },
    })
    const { chunks, done } = await readStream(await post(newMock(), PATHS.serverless, body))
    assert.equal(done, true)
    const usage = chunks.at(-1)!
    assert.deepEqual(usage.choices, [])
    assert.deepEqual(usage.usage, { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 })
    assert.equal(usage.object, "text_completion")
    assert.ok(chunks.slice(0, -1).every((c) => !("usage" in c)))
  })

  it("counts usage over every choice", async () => {
    const body = completionsBody({ n: 2, max_tokens: 4, ignore_eos: true, stream_options: { include_usage: true } })
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    assert.equal((chunks.at(-1)!.usage as { completion_tokens: number }).completion_tokens, 8)
  })

  it("accepts token ids instead of a prompt and counts them as prompt tokens", async () => {
    const body = {
      model: "m",
      tokens: [128000, 2028, 374],
      stream: true,
      max_tokens: 2,
      stream_options: { include_usage: true },
    }
    const { chunks } = await readStream(await post(newMock(), PATHS.serverless, body))
    assert.equal((chunks.at(-1)!.usage as { prompt_tokens: number }).prompt_tokens, 3)
  })

  it("answers a non-streaming request with one body whose text equals the accumulated stream", async () => {
    const mock = newMock()
    const body = completionsBody({ n: 2, max_tokens: 12, logprobs: 2, seed: 11, stop: [" the"] })
    const streamed = await readStream(await post(mock, PATHS.serverless, body))
    const res = await post(mock, PATHS.serverless, { ...body, stream: false })
    assert.equal(res.headers.get("content-type"), "application/json")
    const json = (await res.json()) as {
      object: string
      choices: Array<{
        index: number
        text: string
        tokens: Array<number>
        finish_reason: string
        logprobs: { tokens: Array<string> }
      }>
      usage: { completion_tokens: number }
    }
    assert.equal(json.object, "text_completion")
    const texts = accumulateText(streamed.chunks)
    for (const choice of json.choices) {
      assert.equal(choice.text, texts.get(choice.index))
      const streamedChoices = streamed.chunks.flatMap(choicesOf).filter((c) => c.index === choice.index)
      assert.deepEqual(
        choice.tokens,
        streamedChoices.filter((c) => c.token !== undefined).map((c) => c.token),
      )
      assert.equal(choice.finish_reason, streamedChoices.at(-1)!.finish_reason)
      assert.equal(choice.logprobs.tokens.join(""), choice.text)
    }
    assert.equal(
      json.usage.completion_tokens,
      json.choices.reduce((n, c) => n + c.tokens.length, 0),
    )
  })

  it("sends a request id header that names the record", async () => {
    const mock = newMock()
    const res = await post(mock, PATHS.serverless, completionsBody())
    const id = res.headers.get("x-mock-request-id")!
    assert.equal(mock.request(id)?.path, PATHS.serverless)
    await res.body?.cancel()
  })
})
