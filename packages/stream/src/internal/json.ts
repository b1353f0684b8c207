/**
 * Layer 5: event -> JSON, with the `[DONE]` sentinel and in-stream errors. An event named `error`, or JSON with an
 * `error` member, fails with `ApiError`; data that is not JSON fails with `ChunkDecodeError` (`MalformedJson`).
 */
import { ChunkDecodeError } from "../StreamError.ts"
import { hasErrorMember, toApiError } from "./apiError.ts"
import { type Codec, cutText } from "./codec.ts"
import type { Stage } from "./decoder.ts"
import { isDone } from "./done.ts"

export class JsonStage<A> implements Stage<A> {
  out: Array<A> = []
  sawDone = false
  readonly checksEnd = true

  private readonly codec: Codec<A>

  constructor(codec: Codec<A>) {
    this.codec = codec
  }

  event(type: string, data: string, id: string | undefined, _retry: number | undefined, index: number): boolean {
    if (isDone(data)) {
      this.sawDone = true
      return false
    }
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
    if (type === "error" || hasErrorMember(value)) throw toApiError(value, index)
    this.out.push(this.codec.decode(value, type, index, id, data))
    return true
  }
}
