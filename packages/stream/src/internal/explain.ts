/** Decoding with an Effect Schema, with Effect's own explanation of what was wrong when the value does not fit. */
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"

const format = SchemaIssue.makeFormatterDefault()

/** A decoder returning the value, or the explanation of every issue (excess properties are ignored). */
export const decodeExplained = <A>(schema: Schema.Decoder<A>): ((u: unknown) => Result.Result<A, string>) => {
  const parse = SchemaParser.decodeUnknownResult(schema, { errors: "all", onExcessProperty: "ignore" })
  return (u) => Result.mapError(parse(u), format)
}
