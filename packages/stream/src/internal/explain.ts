/**
 * Decoding with an Effect Schema, explaining a value that does not fit with one line per wrong field:
 * `logprobs: Expected a value less than or equal to 20, got 100`.
 */
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"

/** The longest line of an explanation: a value quoted after "got" is cut there. */
const MAX_LINE = 300

/** One wrong field: where it is, what was expected there, and whether it was missing. */
interface Line {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  readonly missing: boolean
}

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The wrong fields of an issue. Where no member of a union fits, only the member closest to the value speaks: the
 * one with the fewest missing keys, then the fewest wrong fields (a completion request with a `prompt` is not told
 * that `tokens` is missing).
 */
const linesOf = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): Array<Line> => {
  switch (issue._tag) {
    case "Pointer":
      return linesOf(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((i) => linesOf(i, path))
    case "AnyOf":
      if (issue.issues.length > 0) return closest(issue.issues.map((i) => linesOf(i, path)))
      break
  }
  return standard(issue).issues.map((i) => ({
    path: [...path, ...(i.path ?? []).map((p) => (typeof p === "object" ? p.key : p))],
    message: i.message,
    missing: issue._tag === "MissingKey",
  }))
}

const closest = (members: ReadonlyArray<Array<Line>>): Array<Line> => {
  const score = (lines: ReadonlyArray<Line>): number => lines.filter((l) => l.missing).length * 1e6 + lines.length
  return members.reduce((best, lines) => (score(lines) < score(best) ? lines : best))
}

/** `messages[0].content`; the value itself is `(the value)`. */
const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.length === 0
    ? "(the value)"
    : path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("")

const format = (issue: SchemaIssue.Issue): string => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const l of linesOf(issue, [])) {
    const line = `${formatPath(l.path)}: ${l.message}`
    if (seen.has(line)) continue
    seen.add(line)
    out.push(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line)
  }
  return out.join("\n")
}

/**
 * A decoder returning the value, or the explanation of every issue, one line per wrong field: where, what was
 * expected there, and the value found (cut to a line). Excess properties are ignored.
 */
export const decodeExplained = <A>(schema: Schema.Decoder<A>): ((u: unknown) => Result.Result<A, string>) => {
  const parse = SchemaParser.decodeUnknownResult(schema, {
    errors: "all",
    onExcessProperty: "ignore",
    reportInput: true,
  })
  return (u) => Result.mapError(parse(u), format)
}
