/**
 * Layer 5: event -> JSON, with the `[DONE]` sentinel and in-stream errors. An event whose data is empty (`data:`
 * alone, which WHATWG dispatches) carries no JSON and is skipped, except an event named `error`. An event named
 * `error` (with or without data), or the JSON of an unnamed (`message`) event with a non-null `error` member, fails
 * with `ApiError`; data that is not JSON fails with `ChunkDecodeError` (`MalformedJson`).
 *
 * Only those two are in-stream API errors: OpenAI-compatible servers send `data: {"error": …}` (OpenAI, OpenRouter)
 * or `event: error` (Groq, Anthropic). The data of any other named event is what its name says, and its codec decodes
 * it: Friendli's `event: tool_status` has an `error` member of its own (`{"status": "ERRORED", "error": {"type",
 * "msg"}}`) when a built-in tool fails, and the answer goes on after it.
 *
 * `event` only records the events of a read; `flush`, called once the read is split, parses and checks them in
 * order. Two small loops instead of one deep one: the JIT then inlines the line scanner whole, which measured 5–10%
 * faster on reads that carry many events.
 */
import { ChunkDecodeError } from "../StreamError.ts"
import { hasErrorMember, toApiError } from "./apiError.ts"
import { type Codec, cutText } from "./codec.ts"
import { MISSING_DONE, type Stage } from "./decoder.ts"
import { isDone } from "./done.ts"

/**
 * How a protocol's stream ends, for one stream (it keeps state): it sees each output in order, and says what is
 * missing once the stream stopped or the body ended. Without one, a stream ends at `data: [DONE]`.
 */
export interface EndTracker<A> {
  /** Sees one output; `true` when it is the terminal event: nothing after it is read. */
  see(output: A): boolean
  /** What the stream still lacks (`doneSeen`: a `data: [DONE]` came), or `undefined` when it ended properly. */
  missing(doneSeen: boolean): string | undefined
}

export class JsonStage<A> implements Stage<A> {
  out: Array<A> = []
  sawDone = false
  finished = false
  readonly checksEnd = true
  readonly errorsWithoutData = true

  private readonly codec: Codec<A>
  private readonly end: EndTracker<A> | undefined
  /** The events recorded since the last `flush`: data, type and id, the first one's index. */
  private readonly datas: Array<string> = []
  private readonly types: Array<string> = []
  private readonly ids: Array<string | undefined> = []
  private pending = 0
  private firstIndex = 0

  constructor(codec: Codec<A>, end?: EndTracker<A>) {
    this.codec = codec
    this.end = end
  }

  missingEnd(doneSeen: boolean): string | undefined {
    if (this.end !== undefined) return this.end.missing(doneSeen || this.sawDone)
    return doneSeen || this.sawDone ? undefined : MISSING_DONE
  }

  event(type: string, data: string, id: string | undefined, _retry: number | undefined, index: number): boolean {
    if (isDone(data)) {
      this.sawDone = true
      return false
    }
    if (data.length === 0 && type !== "error") return true
    const n = this.pending++
    if (n === 0) this.firstIndex = index
    this.datas[n] = data
    this.types[n] = type
    this.ids[n] = id
    return true
  }

  flush(): void {
    const n = this.pending
    if (n === 0) return
    this.pending = 0
    const first = this.firstIndex
    const datas = this.datas
    for (let i = 0; i < n; i++) {
      const data = datas[i] as string
      // Drop the reference: a data string is a slice that keeps its whole read alive. (A failure ends the stream,
      // so whatever it leaves behind is never read again.)
      datas[i] = ""
      const output = this.decode(this.types[i] as string, data, this.ids[i], first + i)
      this.out.push(output)
      if (this.end?.see(output)) {
        // The terminal event: what came after it in this read is not read.
        this.finished = true
        for (let j = i + 1; j < n; j++) datas[j] = ""
        return
      }
    }
  }

  private decode(type: string, data: string, id: string | undefined, index: number): A {
    let value: unknown
    try {
      value = JSON.parse(data)
    } catch (e) {
      if (type === "error") throw toApiError(data, index)
      const explanation = e instanceof Error ? e.message : String(e)
      throw new ChunkDecodeError({
        reason: "MalformedJson",
        message: `Event ${index}${id === undefined ? "" : ` (id ${id})`} does not hold JSON (${explanation}): ${cutText(data).slice(0, 120)}`,
        text: cutText(data),
        eventIndex: index,
        eventId: id,
        explanation,
      })
    }
    if (type === "error" || (type === "message" && hasErrorMember(value))) throw toApiError(value, index)
    return this.codec.decode(value, type, index, id, data)
  }
}
