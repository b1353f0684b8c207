/** Decoding with an Effect Schema, with Effect's own explanation of what was wrong when the value does not fit. */
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"

const formatIssue = SchemaIssue.makeFormatterDefault()

/** The longest line of an explanation: a value quoted after "got" is cut there. */
const MAX_LINE = 300

const format = (issue: SchemaIssue.Issue): string =>
  formatIssue(issue)
    .split("\n")
    .map((line) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line))
    .join("\n")

/**
 * A decoder returning the value, or the explanation of every issue: what was expected, the value found there (cut to
 * a line) and where. Excess properties are ignored.
 */
export const decodeExplained = <A>(schema: Schema.Decoder<A>): ((u: unknown) => Result.Result<A, string>) => {
  const parse = SchemaParser.decodeUnknownResult(schema, {
    errors: "all",
    onExcessProperty: "ignore",
    reportInput: true,
  })
  return (u) => Result.mapError(parse(u), format)
}
