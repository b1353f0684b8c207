/**
 * Folding a Messages stream into the final message: content blocks by `index` (text concatenated, thinking
 * concatenated with its signature, `input_json_delta`s concatenated and parsed into `input` at
 * `content_block_stop`, citations appended), the stop reason and sequence of `message_delta`, and the usage of
 * `message_start` updated by each `message_delta`'s (its counts are running totals).
 */
import { isRecord, type Json } from "./record.ts"
import { parseToolInput } from "./toolInput.ts"

/** A content block of the final message: the server's fields, with the deltas folded in. */
export interface MessageContentBlock {
  /** `text`, `thinking`, `tool_use`, or another kind a server sends (kept as it came). */
  readonly type: string
  readonly text?: string | undefined
  readonly thinking?: string | undefined
  readonly signature?: string | undefined
  /** A tool call's id and name. */
  readonly id?: string | undefined
  readonly name?: string | undefined
  /** A tool call's input: the `input_json_delta`s parsed at `content_block_stop`. */
  readonly input?: unknown
  readonly [key: string]: unknown
}

/** The final message a Messages stream folds into. */
export interface MessageResult {
  readonly id: string | undefined
  readonly type: "message"
  readonly role: "assistant"
  readonly model: string | undefined
  readonly content: ReadonlyArray<MessageContentBlock>
  /** `end_turn`, `max_tokens`, `tool_use`, `stop_sequence`, … (`null` until `message_delta` says). */
  readonly stop_reason: string | null
  readonly stop_sequence: string | null
  readonly usage: Json | null
}

type Block = { type: string; [key: string]: unknown }

const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)

/** Accumulates Messages events: `add` each one, then read `result()`. */
export class MessagesAccumulator {
  private id: string | undefined = undefined
  private model: string | undefined = undefined
  private readonly blocks = new Map<number, Block>()
  /** The `input_json_delta` text of each open block that had any. */
  private readonly json = new Map<number, string>()
  private stopReason: string | null = null
  private stopSequence: string | null = null
  private usage: Json | null = null

  /** Adds one event (`ping` and events of unknown types change nothing); throws `ToolInputError`. */
  add(event: { readonly type: string }): this {
    const e = event as unknown as Json
    switch (event.type) {
      case "message_start": {
        const message = isRecord(e.message) ? e.message : {}
        this.id = str(message.id)
        this.model = str(message.model)
        if (isRecord(message.usage)) this.usage = { ...message.usage }
        if (Array.isArray(message.content)) {
          message.content.forEach((block, i) => {
            if (isRecord(block)) this.blocks.set(i, { ...block } as Block)
          })
        }
        break
      }
      case "content_block_start":
        if (isRecord(e.content_block)) this.blocks.set(Number(e.index), { ...e.content_block } as Block)
        break
      case "content_block_delta":
        if (isRecord(e.delta)) this.delta(Number(e.index), e.delta)
        break
      case "content_block_stop":
        this.stop(Number(e.index))
        break
      case "message_delta": {
        const delta = isRecord(e.delta) ? e.delta : {}
        if (delta.stop_reason !== undefined) this.stopReason = str(delta.stop_reason) ?? null
        if (delta.stop_sequence !== undefined) this.stopSequence = str(delta.stop_sequence) ?? null
        if (isRecord(e.usage)) this.addUsage(e.usage)
        break
      }
    }
    return this
  }

  /** The message folded so far. */
  result(): MessageResult {
    return {
      id: this.id,
      type: "message",
      role: "assistant",
      model: this.model,
      content: [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, block]) => block),
      stop_reason: this.stopReason,
      stop_sequence: this.stopSequence,
      usage: this.usage,
    }
  }

  private block(index: number, type: string): Block {
    let block = this.blocks.get(index)
    if (block === undefined) {
      block = { type }
      this.blocks.set(index, block)
    }
    return block
  }

  private delta(index: number, delta: Json): void {
    switch (delta.type) {
      case "text_delta":
        append(this.block(index, "text"), "text", delta.text)
        break
      case "thinking_delta":
        append(this.block(index, "thinking"), "thinking", delta.thinking)
        break
      case "signature_delta":
        append(this.block(index, "thinking"), "signature", delta.signature)
        break
      case "input_json_delta":
        this.json.set(index, (this.json.get(index) ?? "") + (str(delta.partial_json) ?? ""))
        break
      case "citations_delta": {
        const block = this.block(index, "text")
        const citations = Array.isArray(block.citations) ? [...block.citations] : []
        if (delta.citation !== undefined) citations.push(delta.citation)
        block.citations = citations
        break
      }
    }
  }

  private stop(index: number): void {
    const text = this.json.get(index)
    if (text === undefined) return
    this.json.delete(index)
    const block = this.block(index, "tool_use")
    // No `input_json_delta` text: the input is the one `content_block_start` gave (`{}` for a call without one).
    block.input =
      text.trim().length === 0 && block.input !== undefined
        ? block.input
        : parseToolInput(text, { callId: str(block.id), name: str(block.name), index })
  }

  private addUsage(usage: Json): void {
    const merged: Json = { ...this.usage }
    for (const key of Object.keys(usage)) if (usage[key] !== null) merged[key] = usage[key]
    this.usage = merged
  }
}

const append = (block: Block, key: string, piece: unknown): void => {
  block[key] = (str(block[key]) ?? "") + (str(piece) ?? "")
}
