/**
 * Compatible mode's tool-call indices. A streamed tool-call delta's `index` names the call it continues (OpenAI,
 * Friendli); several OpenAI-compatible servers omit it or send `null` (Gemini, Ollama, SGLang, mistral.rs), and some
 * reuse one index for calls with different ids. Per choice, in the order the deltas arrive, before the compatible
 * schema checks a chunk:
 *
 * - a delta without `index` continues the current call (the one the last delta went to), unless it carries a
 *   non-null `id` other than that call's, or there is no call yet: then it starts a new call;
 * - a delta whose `index` names a call that already has a different non-null `id` starts a new call; an `index` named
 *   for the first time goes to the call that deltas without an index started under that same index, if any (a server
 *   that names the index only after the first delta);
 * - a new call keeps the index the server gave it when no call has that index yet, and otherwise takes the next index
 *   after every one in use.
 *
 * Each delta's `index` is then set to its call's index, so that the chunks and the accumulated `tool_calls` agree.
 * An `index` that is neither absent, `null` nor an integer is left for the schema to explain. Strict mode does not
 * use this: Friendli's spec requires `index`.
 */

import { isRecord, type Json } from "./record.ts"

interface Call {
  readonly index: number
  id: string | undefined
  /** Whether a server index names this call (a call started by a delta without one has none yet). */
  named: boolean
}

class ChoiceCalls {
  /** The call each index the server sent last named. */
  private readonly byServerIndex = new Map<number, Call>()
  /** Every call, by the index given to it. */
  private readonly calls = new Map<number, Call>()
  private next = 0
  private current: Call | undefined = undefined

  /** The call a delta goes to; `undefined` when its `index` is malformed. */
  place(serverIndex: unknown, id: string | undefined): Call | undefined {
    let call: Call | undefined
    if (serverIndex === undefined || serverIndex === null) {
      call = this.current
      if (call === undefined || this.otherId(call, id)) call = this.start(undefined)
    } else if (typeof serverIndex === "number" && Number.isInteger(serverIndex)) {
      call = this.byServerIndex.get(serverIndex)
      if (call === undefined) {
        // A server that named no index at first and then names this one: the call it started is that index.
        const unnamed = this.calls.get(serverIndex)
        if (unnamed !== undefined && !unnamed.named && !this.otherId(unnamed, id)) call = unnamed
      }
      if (call === undefined || this.otherId(call, id)) call = this.start(serverIndex)
      call.named = true
      this.byServerIndex.set(serverIndex, call)
    } else {
      return undefined
    }
    if (call.id === undefined) call.id = id
    this.current = call
    return call
  }

  private otherId(call: Call, id: string | undefined): boolean {
    return id !== undefined && call.id !== undefined && id !== call.id
  }

  private start(wanted: number | undefined): Call {
    const index = wanted !== undefined && wanted >= 0 && !this.calls.has(wanted) ? wanted : this.next
    const call: Call = { index, id: undefined, named: false }
    this.calls.set(index, call)
    if (index >= this.next) this.next = index + 1
    return call
  }
}

/** The tool calls of one stream, per choice: rewrites the `index` of each tool-call delta. */
export class ToolCallIndexer {
  private readonly choices = new Map<number, ChoiceCalls>()

  /** Rewrites the tool-call deltas of one choice's delta in place; anything not shaped like one is left alone. */
  apply(choiceIndex: number, delta: Json): void {
    const calls = delta.tool_calls
    if (!Array.isArray(calls)) return
    let state = this.choices.get(choiceIndex)
    if (state === undefined) {
      state = new ChoiceCalls()
      this.choices.set(choiceIndex, state)
    }
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]
      if (!isRecord(call)) continue
      const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined
      const placed = state.place(call.index, id)
      if (placed !== undefined) call.index = placed.index
    }
  }
}
