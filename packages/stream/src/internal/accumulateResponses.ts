/**
 * Folding a Responses stream into the final response: the output items by `output_index`, built from the events
 * (text and reasoning deltas concatenated per content part, function call arguments concatenated and parsed when the
 * call is done, or at `response.completed` for a call without a `*.done` event); each `*.done` event's full value replaces what the deltas built; the last lifecycle snapshot gives
 * the id, model, status, usage, `incomplete_details` and `error`.
 */
import { isRecord, type Json } from "./record.ts"
import { parseToolInput } from "./toolInput.ts"

/** An output item of the final response: the server's fields, with text and arguments folded in. */
export interface ResponseOutputItem {
  /** `message`, `reasoning`, `function_call`, or another kind a server sends (kept as it came). */
  readonly type: string
  readonly id?: string | undefined
  /** The content parts of a message (`output_text` with `text`) or of a reasoning item (`reasoning_text`). */
  readonly content?: ReadonlyArray<Json> | undefined
  /** A function call's argument text, concatenated. */
  readonly arguments?: string | undefined
  /** A function call's arguments parsed as JSON, once the call is done. */
  readonly parsed_arguments?: unknown
  readonly [key: string]: unknown
}

/** The final response a Responses stream folds into. */
export interface ResponseResult {
  /** The response id (from the lifecycle events). */
  readonly id: string | undefined
  readonly model: string | undefined
  /** The last status: `completed`, `incomplete`, or `in_progress` when the stream ended before its end. */
  readonly status: string | undefined
  readonly output: ReadonlyArray<ResponseOutputItem>
  /** The text of every `output_text` part of every message, joined. */
  readonly output_text: string
  readonly usage: Json | null
  /** Why the response is incomplete (e.g. `{ reason: "max_output_tokens" }`), `null` otherwise. */
  readonly incomplete_details: Json | null
  readonly error: Json | null
}

type Item = {
  type: string
  content?: Array<Json>
  arguments?: string
  parsed_arguments?: unknown
  [k: string]: unknown
}

const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)
const num = (u: unknown): number => (typeof u === "number" ? u : 0)
const obj = (u: unknown): Json | null => (isRecord(u) ? u : null)

/** Accumulates Responses events: `add` each one, then read `result()`. */
export class ResponsesAccumulator {
  private readonly items = new Map<number, Item>()
  private snapshot: Json | undefined = undefined

  /** Adds one event (events of unknown types are ignored); throws `ToolInputError` for malformed arguments. */
  add(event: { readonly type: string }): this {
    const e = event as unknown as Json
    switch (event.type) {
      case "response.created":
      case "response.queued":
      case "response.in_progress":
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        if (isRecord(e.response)) this.snapshot = e.response
        // A completed response's calls are done, even those a server sent no `*.done` event for.
        if (event.type === "response.completed") {
          for (const [index, item] of this.items) {
            if (item.type === "function_call" && !("parsed_arguments" in item)) parseArguments(item, index)
          }
        }
        break
      case "response.output_item.added":
        if (isRecord(e.item)) this.items.set(num(e.output_index), copyItem(e.item))
        break
      case "response.output_item.done":
        if (isRecord(e.item)) this.itemDone(num(e.output_index), e.item)
        break
      case "response.content_part.added":
      case "response.content_part.done":
        if (isRecord(e.part)) this.contentOf(e)[num(e.content_index)] = { ...e.part }
        break
      case "response.output_text.delta":
        this.appendText(e, "output_text", str(e.delta) ?? "")
        break
      case "response.reasoning_text.delta":
        this.appendText(e, "reasoning_text", str(e.delta) ?? "")
        break
      case "response.output_text.done":
      case "response.reasoning_text.done":
        this.part(e, event.type === "response.output_text.done" ? "output_text" : "reasoning_text").text =
          str(e.text) ?? ""
        break
      case "response.function_call_arguments.delta": {
        const item = this.item(num(e.output_index), "function_call")
        item.arguments = (item.arguments ?? "") + (str(e.delta) ?? "")
        break
      }
      case "response.function_call_arguments.done": {
        const index = num(e.output_index)
        const item = this.item(index, "function_call")
        item.arguments = str(e.arguments) ?? item.arguments ?? ""
        parseArguments(item, index)
        break
      }
    }
    return this
  }

  /** The response folded so far. */
  result(): ResponseResult {
    const snapshot = this.snapshot
    const output: Array<ResponseOutputItem> =
      this.items.size > 0
        ? [...this.items.entries()].sort((a, b) => a[0] - b[0]).map(([, item]) => item)
        : Array.isArray(snapshot?.output)
          ? (snapshot.output.filter(isRecord) as Array<ResponseOutputItem>)
          : []
    let text = ""
    for (const item of output) {
      if (item.type !== "message" || !Array.isArray(item.content)) continue
      for (const part of item.content) if (part.type === "output_text") text += str(part.text) ?? ""
    }
    return {
      id: str(snapshot?.id),
      model: str(snapshot?.model),
      status: str(snapshot?.status),
      output,
      output_text: text,
      usage: obj(snapshot?.usage),
      incomplete_details: obj(snapshot?.incomplete_details),
      error: obj(snapshot?.error),
    }
  }

  private itemDone(index: number, done: Json): void {
    const before = this.items.get(index)
    const item = copyItem({ ...before, ...done })
    // The done item's own fields win; what only the deltas built (a server that omits them at the end) is kept.
    if (done.content == null && before?.content != null) item.content = before.content
    if (done.arguments === undefined && before?.arguments !== undefined) item.arguments = before.arguments
    this.items.set(index, item)
    if (item.type === "function_call") parseArguments(item, index)
  }

  private item(index: number, type: string): Item {
    let item = this.items.get(index)
    if (item === undefined) {
      item = { type }
      this.items.set(index, item)
    }
    return item
  }

  private contentOf(e: Json): Array<Json> {
    const item = this.item(num(e.output_index), "message")
    // A reasoning item may come with `content: null`.
    if (!Array.isArray(item.content)) item.content = []
    return item.content
  }

  private part(e: Json, type: string): Json {
    const content = this.contentOf(e)
    const i = num(e.content_index)
    let part = content[i]
    if (part === undefined) {
      part = { type, text: "" }
      content[i] = part
    }
    return part
  }

  private appendText(e: Json, type: string, delta: string): void {
    const part = this.part(e, type)
    part.text = (str(part.text) ?? "") + delta
  }
}

const copyItem = (item: Json): Item => {
  const copy = { ...item } as Item
  if (Array.isArray(item.content)) copy.content = item.content.map((p) => (isRecord(p) ? { ...p } : p)) as Array<Json>
  return copy
}

const parseArguments = (item: Item, index: number): void => {
  item.parsed_arguments = parseToolInput(item.arguments ?? "", {
    callId: str(item.call_id) ?? str(item.id),
    name: str(item.name),
    index,
  })
}
