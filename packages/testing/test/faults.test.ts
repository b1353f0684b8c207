import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { FAULT_SWITCHES, FaultSpecError, parseFaultSpec, requestIdOf } from "../src/index.ts"
import { chatBody, completionsBody, newMock, parseSse, post, readBody, readStream, request, sleep } from "./helpers.ts"

const PATH = "/serverless/v1/completions"
const body = completionsBody({ max_tokens: 5, ignore_eos: true, seed: 1 })
/** 5 token chunks + 1 finish chunk + [DONE] */
const EVENTS = 7

// A fixed clock and a fresh mock per request: the same request gets byte-identical output (same id and created).
const clock = () => 1_733_382_157_000
const withFault = (fault: string, extra: Record<string, unknown> = {}) =>
  post(newMock({ clock }), PATH, { ...body, ...extra }, { headers: { "x-mock-fault": fault } })

const reference = async () => (await readBody(await post(newMock({ clock }), PATH, body))).text

describe("fault spec parsing", () => {
  it("parses every switch", () => {
    assert.deepEqual(
      parseFaultSpec(
        "delay-first:10, delay:5,comments,keepalive:20,bytes:1,split-eol,coalesce:2,eol:crlf,truncate:3,error:2:data,stall:4,reset:5,no-done,rate-limit:7,status:503,tool-error",
      ),
      {
        delayFirstMs: 10,
        delayMs: 5,
        comments: true,
        keepaliveMs: 20,
        bytes: 1,
        splitEol: true,
        coalesce: 2,
        eol: "\r\n",
        truncateAfter: 3,
        errorAfter: 2,
        errorForm: "data",
        stallAfter: 4,
        resetAfter: 5,
        noDone: true,
        rateLimit: "7",
        status: 503,
        toolError: true,
      },
    )
    assert.deepEqual(parseFaultSpec("stall,reset,rate-limit,error:1"), {
      stallAfter: 0,
      resetAfter: 0,
      rateLimit: "1",
      errorAfter: 1,
      errorForm: "event",
    })
    assert.deepEqual(parseFaultSpec(""), {})
  })

  it("documents every switch it parses", () => {
    for (const name of Object.keys(FAULT_SWITCHES)) {
      const arg = FAULT_SWITCHES[name]!
      const example = arg === "" ? name : `${name}:${arg.startsWith("[") ? "1" : arg === "lf|crlf|cr" ? "cr" : "400"}`
      assert.doesNotThrow(() => parseFaultSpec(example), example)
    }
  })

  it("rejects unknown switches and bad arguments with a message that says what to write", () => {
    assert.throws(
      () => parseFaultSpec("explode"),
      (e: unknown) => e instanceof FaultSpecError && /Known switches/.test(e.message),
    )
    assert.throws(() => parseFaultSpec("delay"), /needs a number/)
    assert.throws(() => parseFaultSpec("bytes:0"), /integer >= 1/)
    assert.throws(() => parseFaultSpec("eol:crcr"), /eol:lf, eol:crlf or eol:cr/)
    assert.throws(() => parseFaultSpec("status:200"), /integer >= 400/)
    assert.throws(() => parseFaultSpec("status:700"), /400 to 599/)
    assert.throws(() => parseFaultSpec("comments:1"), /takes no argument/)
    assert.throws(() => parseFaultSpec("error:1:xml"), /'event' \(default\) or 'data'/)
  })

  it("answers 400 with an error body for a bad switch in a request", async () => {
    const res = await withFault("explode")
    assert.equal(res.status, 400)
    const json = (await res.json()) as { error: { type: string; code: string; message: string } }
    assert.equal(json.error.code, "invalid_fault")
    assert.match(json.error.message, /explode/)
  })
})

describe("fault sources", () => {
  it("takes faults from the header, the query, a path prefix, the queue and the default, later winning", async () => {
    const mock = newMock({ faults: "truncate:1" })
    const events = async (res: Response) => (await readStream(res)).events.length
    assert.equal(await events(await post(mock, PATH, body)), 1)
    assert.equal(await events(await post(mock, PATH, body, { query: "?fault=truncate:2" })), 2)
    assert.equal(await events(await post(mock, `/_fault/${encodeURIComponent("truncate:3")}${PATH}`, body)), 3)
    mock.queueFaults("truncate:4")
    assert.equal(await events(await post(mock, PATH, body)), 4)
    assert.equal(await events(await post(mock, PATH, body)), 1, "a queued spec is used once")
    assert.equal(
      await events(
        await post(mock, PATH, body, { query: "?fault=truncate:2", headers: { "x-mock-fault": "truncate:5" } }),
      ),
      5,
    )
    assert.equal(mock.lastRequest()?.path, PATH)
    assert.equal(mock.lastRequest()?.faults, "truncate:1,truncate:2,truncate:5")
  })

  it("applies queued faults to API requests in order", async () => {
    const mock = newMock()
    mock.queueFaults("status:503", "rate-limit:2")
    assert.equal((await post(mock, PATH, body)).status, 503)
    assert.equal((await post(mock, PATH, body)).status, 429)
    assert.equal((await post(mock, PATH, body)).status, 200)
  })

  it("refuses to queue a bad spec", () => {
    assert.throws(() => newMock().queueFaults("nope"), FaultSpecError)
    assert.throws(() => newMock({ faults: "nope" }), FaultSpecError)
  })
})

describe("stream faults", () => {
  it("delay-first waits before the response starts", async () => {
    const started = Date.now()
    const res = await withFault("delay-first:120")
    assert.ok(Date.now() - started >= 100, `answered after ${Date.now() - started} ms`)
    await res.body?.cancel()
  })

  it("delay waits between events", async () => {
    const started = Date.now()
    const { events } = await readStream(await withFault("delay:30"))
    assert.equal(events.length, EVENTS)
    assert.ok(Date.now() - started >= (EVENTS - 1) * 30 - 20, `took ${Date.now() - started} ms`)
  })

  it("comments puts a keep-alive comment before every event", async () => {
    const { text } = await readBody(await withFault("comments"))
    assert.equal(parseSse(text).comments, EVENTS)
    assert.ok(text.startsWith(": keep-alive\n\n"))
    assert.deepEqual(parseSse(text).events, parseSse(await reference()).events)
  })

  it("keepalive sends comments while the stream waits", async () => {
    const { text } = await readBody(await withFault("delay:100,keepalive:30"))
    const { comments, events } = parseSse(text)
    assert.equal(events.length, EVENTS)
    // 3 per 100 ms gap on an idle machine; at least one per gap on a busy one
    assert.ok(comments >= EVENTS - 1, `${comments} comments`)
  })

  it("bytes:1 writes one byte at a time, multi-byte characters included", async () => {
    const plain = await reference()
    const { pieces, text } = await readBody(await withFault("bytes:1"))
    assert.ok(pieces.every((p) => p.length === 1))
    assert.equal(text, plain)
    assert.equal(pieces.length, new TextEncoder().encode(plain).length)
  })

  it("cuts multi-byte UTF-8 characters across writes", async () => {
    const wide = completionsBody({ prompt: "wide", max_tokens: 200, ignore_eos: true })
    const { pieces, text } = await readBody(await withFault("bytes:3", wide))
    assert.ok(
      [...text].some((ch) => ch.charCodeAt(0) > 127),
      "the text has non-ASCII characters",
    )
    const decoder = new TextDecoder("utf-8", { fatal: true })
    assert.ok(
      pieces.some((p) => {
        try {
          decoder.decode(p)
          return false
        } catch {
          return true
        }
      }),
      "some write ends inside a character",
    )
  })

  it("eol:crlf frames events with CRLF and split-eol puts CR and LF in different writes", async () => {
    const { pieces, text } = await readBody(await withFault("eol:crlf,split-eol"))
    assert.ok(text.includes("\r\n\r\n"))
    assert.ok(!/[^\r]\n/.test(text), "every LF follows a CR")
    const decoded = pieces.map((p) => new TextDecoder().decode(p))
    assert.ok(decoded.every((p) => !p.includes("\r\n")))
    assert.ok(decoded.some((p) => p.endsWith("\r")))
    assert.deepEqual(parseSse(text).events, parseSse(await reference()).events)
  })

  it("eol:cr frames events with bare CR", async () => {
    const { text } = await readBody(await withFault("eol:cr"))
    assert.ok(!text.includes("\n"))
    assert.deepEqual(parseSse(text).events, parseSse(await reference()).events)
  })

  it("coalesce:3 puts three events in one write", async () => {
    const { pieces, text } = await readBody(await withFault("coalesce:3"))
    assert.equal(pieces.length, Math.ceil(EVENTS / 3))
    assert.equal(text, await reference())
  })

  it("truncate:K ends the body cleanly after K events, without [DONE]", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, body, { headers: { "x-mock-fault": "truncate:2" } })
    const { events, done } = await readStream(res)
    assert.equal(events.length, 2)
    assert.equal(done, false)
    const record = await mock.waitForSettled(requestIdOf(res))
    assert.equal(record.outcome, "completed")
    assert.ok(record.events.some((e) => e.type === "fault" && e.fault === "truncate"))
  })

  it("truncate at the number of events drops only [DONE]; no-done does the same", async () => {
    for (const fault of ["truncate:6", "no-done"]) {
      const { events, done } = await readStream(await withFault(fault))
      assert.equal(events.length, EVENTS - 1, fault)
      assert.equal(done, false, fault)
    }
  })

  it("error:K sends an event: error with an error body after K events and ends", async () => {
    const { events, done } = await readStream(await withFault("error:2"))
    assert.equal(events.length, 3)
    assert.equal(done, false)
    assert.equal(events[2]!.event, "error")
    const payload = JSON.parse(events[2]!.data) as { error: { message: string; type: string; code: string } }
    assert.equal(payload.error.type, "server_error")
    assert.equal(payload.error.code, "mock_stream_error")
  })

  it("error:K:data sends the error body as a plain data line", async () => {
    const { events } = await readStream(await withFault("error:0:data"))
    assert.equal(events.length, 1)
    assert.equal(events[0]!.event, undefined)
    assert.ok("error" in (JSON.parse(events[0]!.data) as object))
  })

  it("stall:K sends K events then nothing, until the client goes away", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, body, { headers: { "x-mock-fault": "stall:2" } })
    const id = requestIdOf(res)
    const reader = res.body!.getReader()
    let received = ""
    const decoder = new TextDecoder()
    while (parseSse(received).events.length < 2) received += decoder.decode((await reader.read()).value)
    const next = reader.read()
    const winner = await Promise.race([next.then(() => "data"), sleep(150).then(() => "timeout")])
    assert.equal(winner, "timeout")
    assert.equal(mock.request(id)?.outcome, "pending")
    await reader.cancel()
    const record = await mock.waitForDisconnect(id)
    assert.equal(record.outcome, "disconnected")
    assert.ok(record.events.some((e) => e.type === "fault" && e.fault === "stall"))
  })

  it("stall with keepalive keeps sending comments", async () => {
    const res = await withFault("stall:1,keepalive:20")
    const reader = res.body!.getReader()
    let text = ""
    const decoder = new TextDecoder()
    while (parseSse(text).comments < 3) text += decoder.decode((await reader.read()).value)
    assert.equal(parseSse(text).events.length, 1)
    await reader.cancel()
  })

  it("reset:K errors the body after K events and records a reset", async () => {
    const mock = newMock()
    const res = await post(mock, PATH, body, { headers: { "x-mock-fault": "reset:2" } })
    const reader = res.body!.getReader()
    let text = ""
    const decoder = new TextDecoder()
    await assert.rejects(async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        text += decoder.decode(value)
      }
    }, /reset the connection/)
    assert.equal(parseSse(text).events.length, 2)
    const record = mock.request(requestIdOf(res))!
    assert.equal(record.outcome, "reset")
    assert.ok(record.events.some((e) => e.type === "reset"))
  })

  it("applies stream faults to chat streams too", async () => {
    const res = await post(newMock(), "/serverless/v1/chat/completions", chatBody(), {
      headers: { "x-mock-fault": "truncate:1" },
    })
    const { events } = await readStream(res)
    assert.equal(events.length, 1)
  })
})

describe("response faults", () => {
  it("rate-limit answers 429 with Retry-After and an error body", async () => {
    const res = await withFault("rate-limit:3")
    assert.equal(res.status, 429)
    assert.equal(res.headers.get("retry-after"), "3")
    const json = (await res.json()) as { error: { message: string; type: string; code: string } }
    assert.equal(json.error.code, "rate_limit_exceeded")
  })

  it("status answers that status with an error body", async () => {
    for (const status of [500, 502, 503, 504, 400]) {
      const res = await withFault(`status:${status}`)
      assert.equal(res.status, status)
      const json = (await res.json()) as { error: { message: string; type: string } }
      assert.equal(json.error.type, status >= 500 ? "server_error" : "invalid_request_error")
    }
  })

  it("checks the token before injecting a status", async () => {
    const res = await post(newMock(), PATH, body, { token: null, headers: { "x-mock-fault": "status:503" } })
    assert.equal(res.status, 401)
  })

  it("cuts, stalls and resets non-streamed bodies after K bytes", async () => {
    const full = await (await post(newMock(), PATH, { ...body, stream: false })).text()
    const cut = await (await withFault("truncate:10", { stream: false })).text()
    assert.equal(cut, full.slice(0, 10))
    const reset = await withFault("reset:5", { stream: false })
    await assert.rejects(() => reset.text(), /reset/)
    const stalled = await withFault("stall:4", { stream: false })
    const reader = stalled.body!.getReader()
    assert.equal((await reader.read()).value?.length, 4)
    assert.equal(await Promise.race([reader.read().then(() => "data"), sleep(100).then(() => "timeout")]), "timeout")
    await reader.cancel()
  })

  it("splits non-streamed bodies with bytes:N", async () => {
    const { pieces, text } = await readBody(await withFault("bytes:7", { stream: false }))
    assert.ok(pieces.slice(0, -1).every((p) => p.length === 7))
    assert.doesNotThrow(() => JSON.parse(text))
  })

  it("lets a client disconnect during delay-first be recorded", async () => {
    const mock = newMock()
    const abort = new AbortController()
    const pending = mock.fetch(
      request(PATH, body, { headers: { "x-mock-fault": "delay-first:5000" }, signal: abort.signal }),
    )
    const record = await mock.waitForRequest()
    abort.abort()
    const seen = await mock.waitForDisconnect(record.id, { timeoutMs: 1000 })
    assert.equal(seen.outcome, "disconnected")
    const res = await pending
    await res.body?.cancel()
  })
})
