/**
 * Response bodies with faults: turns frames (or a JSON text) into a `ReadableStream` of bytes, applying delays,
 * keep-alives, odd write boundaries, truncation, in-stream errors, stalls and resets, and recording every write.
 *
 * The stream is pull-based with a high-water mark of 0: nothing is produced before the runtime asks for it, so
 * the `write` events in the record are the writes the runtime actually took, and a client that stops reading
 * stops the producer (backpressure).
 */
import type { FaultPlan } from "./faults.ts"
import { type ErrorPayload, type Frame, type FrameData, frameComment, frameEvent } from "./frames.ts"
import type { Recorder } from "./records.ts"

/**
 * Thrown into a response body to ask the runtime to reset the connection. The Node bridge destroys the socket
 * with a TCP RST; other runtimes abort the response mid-body.
 *
 * @since 0.1.0
 */
export class MockConnectionReset extends Error {
  override readonly name = "MockConnectionReset"
  constructor() {
    super("The mock reset the connection (the 'reset' fault).")
  }
}

/** What a body needs from the request it answers. */
export interface BodyContext {
  readonly id: string
  readonly recorder: Recorder
  readonly plan: FaultPlan
  /** Aborted when the client disconnects or the mock is closed. */
  readonly signal: AbortSignal
  /** Called when the client cancels the body. */
  readonly onCancel: () => void
  /** Called once when the body ends for any reason. */
  readonly onSettle: () => void
  /**
   * The API's in-stream failure, sent by the `error` fault after `after` events: its `event:` name and its data.
   * Default: `event: error` with `{"error": {"message", "type", "code"}}` (chat, completions, transcriptions).
   */
  readonly failure?: ((after: number) => { readonly event: string; readonly data: FrameData }) | undefined
}

const encoder = new TextEncoder()

/** Resolves after `ms` or as soon as `signal` aborts, whichever is first. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener("abort", done)
      resolve()
    }
    const timer = ms === Number.POSITIVE_INFINITY ? undefined : setTimeout(done, ms)
    signal.addEventListener("abort", done)
  })

/** Waits `ms` (forever for `Infinity`), yielding a keep-alive comment every `keepaliveMs` meanwhile. */
async function* idle(ctx: BodyContext, ms: number, eol: string): AsyncGenerator<string> {
  const every = ctx.plan.keepaliveMs
  const end = Date.now() + ms
  while (!ctx.signal.aborted) {
    const left = end - Date.now()
    if (left <= 0) return
    if (every === undefined) {
      await sleep(left, ctx.signal)
      return
    }
    await sleep(Math.min(left, every), ctx.signal)
    if (ctx.signal.aborted || Date.now() >= end) return
    ctx.recorder.event(ctx.id, { type: "comment", at: ctx.recorder.clock() })
    yield frameComment("keep-alive", eol as "\n")
  }
}

const errorPayload = (after: number): ErrorPayload => ({
  error: {
    message: `Injected in-stream error after ${after} events (the 'error' fault).`,
    type: "server_error",
    code: "mock_stream_error",
  },
})

/** The text of an SSE response, piece by piece, with the plan's stream faults applied. */
async function* sseText(frames: ReadonlyArray<Frame>, ctx: BodyContext): AsyncGenerator<string> {
  const { plan, recorder, id } = ctx
  const eol = plan.eol ?? "\n"
  const group = plan.coalesce ?? 1
  const fault = (name: string) => recorder.event(id, { type: "fault", at: recorder.clock(), fault: name })
  let sent = 0
  let pending = ""
  let inGroup = 0
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!
    if (ctx.signal.aborted) return
    if (plan.truncateAfter === sent) {
      if (pending !== "") yield pending
      fault("truncate")
      return
    }
    if (plan.errorAfter === sent) {
      const failure = ctx.failure?.(sent) ?? { event: "error", data: errorPayload(sent) }
      const data = failure.data
      pending += frameEvent(
        plan.errorForm === "data" ? { kind: "data", data } : { kind: "data", event: failure.event, data },
        eol,
      )
      recorder.event(id, {
        type: "chunk",
        at: recorder.clock(),
        index: sent,
        data: JSON.stringify(data),
        ...(plan.errorForm === "data" ? {} : { event: failure.event }),
      })
      fault("error")
      yield pending
      return
    }
    if (plan.resetAfter === sent) {
      if (pending !== "") yield pending
      fault("reset")
      throw new MockConnectionReset()
    }
    if (plan.stallAfter === sent) {
      if (pending !== "") yield pending
      fault("stall")
      yield* idle(ctx, Number.POSITIVE_INFINITY, eol)
      return
    }
    if (frame.kind === "done" && plan.noDone) {
      fault("no-done")
      break
    }
    if (i > 0 && plan.delayMs !== undefined && plan.delayMs > 0) {
      if (pending !== "") {
        yield pending
        pending = ""
        inGroup = 0
      }
      yield* idle(ctx, plan.delayMs, eol)
      if (ctx.signal.aborted) return
    }
    if (plan.comments) {
      pending += frameComment("keep-alive", eol)
      recorder.event(id, { type: "comment", at: recorder.clock() })
    }
    pending += frameEvent(frame, eol)
    recorder.event(id, {
      type: "chunk",
      at: recorder.clock(),
      index: sent,
      data: frame.kind === "done" ? "[DONE]" : JSON.stringify(frame.data),
      ...(frame.kind === "data" && frame.event !== undefined ? { event: frame.event } : {}),
    })
    if (frame.kind === "data") sent++
    inGroup++
    if (inGroup >= group) {
      yield pending
      pending = ""
      inGroup = 0
    }
  }
  if (pending !== "") yield pending
}

/** The text of a JSON response; `truncate`, `stall` and `reset` count bytes here instead of events. */
async function* jsonText(text: string, ctx: BodyContext): AsyncGenerator<string | Uint8Array> {
  const { plan, recorder, id } = ctx
  const bytes = encoder.encode(text)
  const cut = [plan.truncateAfter, plan.stallAfter, plan.resetAfter].filter((x): x is number => x !== undefined)
  const at = cut.length === 0 ? bytes.length : Math.min(bytes.length, ...cut)
  if (at > 0) yield bytes.subarray(0, at)
  if (at === bytes.length && cut.every((c) => c > bytes.length)) return
  const fault = (name: string) => recorder.event(id, { type: "fault", at: recorder.clock(), fault: name })
  if (plan.truncateAfter === at) return void fault("truncate")
  if (plan.resetAfter === at) {
    fault("reset")
    throw new MockConnectionReset()
  }
  if (plan.stallAfter === at) {
    fault("stall")
    await sleep(Number.POSITIVE_INFINITY, ctx.signal)
  }
}

const splitEol = (text: string): ReadonlyArray<string> => text.split(/(?<=[\r\n])/u).filter((s) => s !== "")

const pieces = (value: string | Uint8Array, plan: FaultPlan): ReadonlyArray<Uint8Array> => {
  const parts =
    typeof value === "string" ? (plan.splitEol ? splitEol(value) : [value]).map((s) => encoder.encode(s)) : [value]
  const size = plan.bytes
  if (size === undefined) return parts
  const out: Array<Uint8Array> = []
  for (const part of parts) for (let i = 0; i < part.length; i += size) out.push(part.subarray(i, i + size))
  return out
}

const toStream = (source: AsyncGenerator<string | Uint8Array>, ctx: BodyContext): ReadableStream<Uint8Array> => {
  const { recorder, id } = ctx
  const queue: Array<Uint8Array> = []
  let settled = false
  const settle = () => {
    if (settled) return
    settled = true
    ctx.onSettle()
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          while (queue.length === 0) {
            const next = await source.next()
            if (next.done) {
              if (!ctx.signal.aborted) recorder.event(id, { type: "complete", at: recorder.clock() })
              settle()
              try {
                controller.close()
              } catch {
                // already cancelled by the consumer
              }
              return
            }
            queue.push(...pieces(next.value, ctx.plan).filter((p) => p.length > 0))
          }
          const piece = queue.shift()!
          recorder.event(id, { type: "write", at: recorder.clock(), bytes: piece.length })
          controller.enqueue(piece)
        } catch (error) {
          if (error instanceof MockConnectionReset) recorder.event(id, { type: "reset", at: recorder.clock() })
          settle()
          controller.error(error)
        }
      },
      async cancel() {
        ctx.onCancel()
        settle()
        await source.return(undefined)
      },
    },
    { highWaterMark: 0 },
  )
}

/** An event-stream body. */
export const sseBody = (frames: ReadonlyArray<Frame>, ctx: BodyContext): ReadableStream<Uint8Array> =>
  toStream(sseText(frames, ctx), ctx)

/** A JSON body (non-streamed responses). */
export const jsonBody = (text: string, ctx: BodyContext): ReadableStream<Uint8Array> =>
  toStream(jsonText(text, ctx), ctx)
