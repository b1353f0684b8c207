/**
 * Folding a transcription stream into the transcript: the deltas concatenated, then `transcript.text.done`'s whole
 * text (it wins over the deltas) and usage.
 */
import { isRecord, type Json } from "./record.ts"

/** The final transcript a transcription stream folds into. */
export interface TranscriptResult {
  readonly text: string
  /** The usage of `transcript.text.done` (`null` before it, or when it had none). */
  readonly usage: Json | null
}

/** Accumulates transcription events: `add` each one, then read `result()`. */
export class TranscriptionAccumulator {
  private text = ""
  private usage: Json | null = null

  /** Adds one event (events of other types change nothing). */
  add(event: { readonly type: string }): this {
    const e = event as unknown as Json
    if (event.type === "transcript.text.delta") {
      if (typeof e.delta === "string") this.text += e.delta
    } else if (event.type === "transcript.text.done") {
      if (typeof e.text === "string") this.text = e.text
      if (isRecord(e.usage)) this.usage = e.usage
    }
    return this
  }

  /** The transcript folded so far. */
  result(): TranscriptResult {
    return { text: this.text, usage: this.usage }
  }
}
