/**
 * Layer 6: JSON value -> typed chunk. The generated guard (allocation-free) is the fast path; Effect Schema runs only
 * when the guard says no, to explain what was wrong (or to accept a value the guard was stricter about).
 */
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import { ChunkDecodeError } from "../StreamError.ts"
import { decodeExplained } from "./explain.ts"

/** Turns one event's parsed JSON into an output; throws `ChunkDecodeError`. */
export interface Codec<A> {
  decode(value: unknown, type: string, index: number, id: string | undefined, data: string): A
  /** A codec that keeps state across the events of a stream makes a fresh one for each stream. */
  fresh?(): Codec<A>
}

/** The codec one stream uses: a fresh one when the codec keeps state, else the codec itself. */
export const forOneStream = <A>(codec: Codec<A>): Codec<A> => (codec.fresh === undefined ? codec : codec.fresh())

/** The longest piece of offending data an error keeps. */
export const MAX_ERROR_TEXT = 512

/** Cuts offending data to a sane length. */
export const cutText = (text: string): string =>
  text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}… (${text.length} characters)` : text

/** What a guarded codec is made of. */
export interface GuardedSpec<A, I> {
  /** The wire-form guard: `true` means `schema` decodes the value without failing. */
  readonly guard: (u: unknown) => u is I
  /** The Effect Schema of the chunk: explains failures, and decodes when `normalize` is absent. */
  readonly schema: Schema.Decoder<A>
  /** Turns a value the guard accepted into the schema's Type (in place); default: decode with the schema. */
  readonly normalize?: ((i: I) => A) | undefined
}

/**
 * The `normalize` of a guard whose values are already what its Schema decodes them to (Friendli's generated schemas,
 * and our compatible ones, transform nothing).
 */
export const unchanged = <A>(a: A): A => a

/** A codec from a guard, a schema and a normaliser. */
export const guardedCodec = <A, I>(spec: GuardedSpec<A, I>): Codec<A> => {
  const { guard, schema } = spec
  const decode = decodeExplained(schema)
  const normalize =
    spec.normalize ??
    ((i: I): A => {
      const result = decode(i)
      if (Result.isSuccess(result)) return result.success
      throw new Error(`The guard accepted a value its schema refuses: ${result.failure}`)
    })
  return {
    decode(value, type, index, id, data) {
      if (guard(value)) return normalize(value)
      const result = decode(value)
      if (Result.isSuccess(result)) return result.success
      const explanation = result.failure
      throw new ChunkDecodeError({
        reason: "SchemaMismatch",
        message:
          `Event ${index}${type === "message" ? "" : ` ("${type}")`} is JSON of the wrong shape for this stream:\n` +
          `${explanation}\nIf the server is OpenAI-compatible rather than Friendli, use validation: "compatible".`,
        text: cutText(data),
        eventIndex: index,
        eventId: id,
        explanation,
      })
    },
  }
}
